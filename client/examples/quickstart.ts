/**
 * The client in a few calls: create a brand (or find it, when an earlier run created it), page
 * through its products, push two products in one bulk job (the second one invalid: a new product
 * needs a variant), follow the job and print its errors. Every run ends the same way, the first and
 * any later one.
 *
 *   STOREFRONT_API_KEY=sfk_local_development_key npm run example
 *
 * STOREFRONT_BASE_URL names the service (default: `npm run dev`'s). The import below is the one a
 * project of your own writes.
 */
import { createStorefrontClient } from "storefront-api-client";

const storefront = createStorefrontClient({
  baseUrl: process.env.STOREFRONT_BASE_URL ?? "http://127.0.0.1:8787",
  apiKey: process.env.STOREFRONT_API_KEY ?? "",
  retry: { attempts: 4, baseDelayMs: 250 }, // the defaults
});

// Every route, typed: paths, parameters, bodies and answers come from the OpenAPI document.
// internal_id is unique, so a second run gets 409 and finds the brand the first run created.
const created = await storefront.api.POST("/api/v1/brands", {
  body: { name: "Lumen", internal_id: "BRD-QUICKSTART", translations: {} },
});
let brandId = created.data?.id;
if (created.response.status === 409) {
  const { data } = await storefront.api.GET("/api/v1/brands", {
    params: { query: { internal_ids: "BRD-QUICKSTART" } },
  });
  brandId = data?.data[0]?.id;
}
if (brandId === undefined) throw new Error(`no brand: ${JSON.stringify(created.error)}`);
console.log(`${created.data ? "created" : "found"} brand ${brandId}`);

// Every item of every page.
for await (const product of storefront.paginate("/api/v1/products", {
  params: { query: { brand_ids: String(brandId), per_page: 100 } },
}))
  console.log(`product ${product.id}`);

// A bulk job: submit, follow, read its errors.
const { job_id } = await storefront.submitBulk("/api/v1/products/bulk", {
  products: [
    {
      internal_id: "PRD-QUICKSTART-1",
      brand_id: brandId,
      translations: { "en-GB": { name: "Organic cotton T-shirt" } },
      variants: [{ internal_id: "VAR-QUICKSTART-1", sku: "TSH-QUICKSTART-WHT", warehouse_stock: 40 }],
    },
    { internal_id: "PRD-QUICKSTART-2", translations: { "en-GB": { name: "Linen T-shirt" } } },
  ],
  options: { match_by: "internal_id" },
});
const job = await storefront.waitForJob(job_id, {
  intervalMs: 500,
  onProgress: ({ status, summary }) =>
    console.log(`job ${status}: ${summary?.processed_records ?? 0} records`),
});
console.log(`job ${job.id} finished ${job.status}: ${job.summary?.failed_records} failed`);
for await (const entry of storefront.jobLogs(job_id, { severity: "ERROR" })) {
  console.log(`error ${entry.code}: ${entry.message}`);
}
