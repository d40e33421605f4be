/**
 * The client in a few calls: create a brand, page through every brand, push two new products in
 * one bulk job (the second one invalid: a new product needs a variant), follow the job and print
 * its errors.
 *
 *   STOREFRONT_API_KEY=sfk_local_development_key node client/examples/quickstart.ts
 *
 * STOREFRONT_BASE_URL defaults to http://127.0.0.1:8787 (`npm run dev`). In a project of your own,
 * import from "storefront-api-client" instead of "../src/index.ts".
 */
import { createStorefrontClient } from "../src/index.ts";

const apiKey = process.env.STOREFRONT_API_KEY;
if (!apiKey) {
  console.error("Set STOREFRONT_API_KEY.");
  process.exit(2);
}
const storefront = createStorefrontClient({
  baseUrl: process.env.STOREFRONT_BASE_URL ?? "http://127.0.0.1:8787",
  apiKey,
});
const run = Date.now().toString(36);

const { data: brand, error } = await storefront.api.POST("/api/v1/brands", {
  body: { name: `Lumen ${run}`, internal_id: `BRD-${run}`, translations: {} },
});
if (!brand) throw new Error(`creating the brand failed: ${JSON.stringify(error)}`);
console.log(`created brand ${brand.id}`);

let brands = 0;
for await (const _ of storefront.paginate("/api/v1/brands", { params: { query: { per_page: 100 } } })) {
  brands++;
}
console.log(`${brands} brands in all`);

const accepted = await storefront.submitBulk("/api/v1/products/bulk", {
  products: [
    {
      internal_id: `PRD-${run}-1`,
      brand_id: brand.id,
      translations: { "en-GB": { name: `Organic cotton T-shirt ${run}` } },
      variants: [{ internal_id: `VAR-${run}-1`, sku: `TSH-${run}-WHT`, warehouse_stock: 40 }],
    },
    { internal_id: `PRD-${run}-2`, translations: { "en-GB": { name: `Linen T-shirt ${run}` } } },
  ],
  options: { match_by: "internal_id" },
});
const job = await storefront.waitForJob(accepted.job_id, {
  intervalMs: 500,
  onProgress: ({ status, summary }) =>
    console.log(`job ${status}: ${summary?.processed_records ?? 0}/${summary?.total_records ?? "?"} records`),
});
console.log(`job ${job.id} finished ${job.status}: ${job.summary?.failed_records} failed`);

for await (const entry of storefront.jobLogs(accepted.job_id, { severity: "ERROR" })) {
  console.log(`error ${entry.code}: ${entry.message} ${JSON.stringify(entry.identifiers)}`);
}
