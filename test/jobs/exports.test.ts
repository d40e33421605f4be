import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { resultKey } from "../../src/async/exports/keys.ts";
import { ProductUpsertRecord } from "../../src/resources/products/products.bulk-record.ts";
import { VariantUpdateRecord } from "../../src/resources/variants/variants.bulk-processor.ts";
import { VARIANT_CSV_COLUMNS } from "../../src/resources/variants/variants.export-records.ts";
import { api } from "../support/api.ts";
import { createBrandRow, createCategoryRow, createProduct } from "../support/factories/catalog.ts";
import { jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { KEYS } from "../support/keys.ts";
import { runScheduled } from "../support/queues.ts";

/** Starts an export through its route and waits for the queue to finish it. */
async function runExport(kind: "products" | "variants", body: Record<string, unknown>) {
  const jobId = await submitBulk(`/api/v1/${kind}/export`, body);
  return { jobId, job: await waitForJob(jobId) };
}

const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function result(jobId: string, headers: Record<string, string> = {}) {
  return api(`/api/v1/jobs/${jobId}/result`, { headers });
}

let brand = 0;
let category = 0;
let shirt: { id: number; variantIds: number[] };
let mug: { id: number; variantIds: number[] };
let other: { id: number; variantIds: number[] };
let ids = "";

beforeAll(async () => {
  brand = await createBrandRow();
  category = await createCategoryRow();
  shirt = await createProduct({
    brandId: brand,
    categoryIds: [category],
    names: { "es-ES": "Camiseta, azul", "en-GB": 'Shirt "blue"' },
    images: ["https://img.test/a.jpg", "https://img.test/b.jpg"],
    variants: [
      {
        names: { "es-ES": "Talla S", "en-GB": "Size S" },
        prices: {
          market_es: {
            list: "19.95",
            offer: "17.50",
            flash: { price: "9.99", from: "2026-01-01", until: "2026-01-02" },
          },
          market_en: { list: "17.99" },
        },
      },
      { costPrice: null },
    ],
  });
  mug = await createProduct({ brandId: brand, status: "unpublished" });
  other = await createProduct({});
  ids = [shirt.id, mug.id, other.id].join(",");
});

describe("export jobs", () => {
  it("write one products upsert record per product, with its variants, as JSONL", async () => {
    const { jobId, job } = await runExport("products", { filters: { product_ids: ids } });
    expect(job.status).toBe("done");
    expect(job.type).toBe("products_export");
    expect(job.summary).toMatchObject({
      total_records: 3,
      processed_records: 3,
      succeeded_records: 3,
      failed_records: 0,
    });
    const res = await result(jobId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="products_export-${jobId}.jsonl"`,
    );
    const records = lines(res.text);
    expect(records.map((r) => r.id)).toEqual([shirt.id, mug.id, other.id]);
    for (const record of records) expect(ProductUpsertRecord.safeParse(record).success).toBe(true);
    expect(records[0]).toMatchObject({
      internal_id: `P-${shirt.id}`,
      brand_id: brand,
      category_ids: [category],
      images: [
        { url: "https://img.test/a.jpg", position: 0 },
        { url: "https://img.test/b.jpg", position: 1 },
      ],
      translations: { "es-ES": { name: "Camiseta, azul" }, "en-GB": { name: 'Shirt "blue"' } },
      variants: [
        {
          id: shirt.variantIds[0],
          prices: {
            market_es: {
              list_price: { amount: "19.95", currency: "EUR" },
              offer_price: { amount: "17.50", currency: "EUR" },
              flash_offer: {
                price: { amount: "9.99", currency: "EUR" },
                valid_from: "2026-01-01",
                valid_until: "2026-01-02",
              },
            },
            market_en: {
              list_price: { amount: "17.99", currency: "GBP" },
              offer_price: null,
              flash_offer: null,
            },
          },
          translations: { "es-ES": { name: "Talla S" }, "en-GB": { name: "Size S" } },
        },
        { id: shirt.variantIds[1], cost_price: null },
      ],
    });
    const info = await jobLogs(jobId);
    expect(info.at(-2)?.message).toMatch(/^The file holds 3 records/);
  });

  it("take the products list's filters, related-row filters included", async () => {
    const byBrand = await runExport("products", {
      filters: { brand_ids: String(brand), status: "published" },
    });
    expect(lines((await result(byBrand.jobId)).text).map((r) => r.id)).toEqual([shirt.id]);
    const bySku = await runExport("products", { filters: { sku: `sku-${mug.variantIds[0]}` } });
    expect(lines((await result(bySku.jobId)).text).map((r) => r.id)).toEqual([mug.id]);
    const byCategory = await runExport("variants", { filters: { category_ids: String(category) } });
    expect(lines((await result(byCategory.jobId)).text).map((r) => r.id)).toEqual(shirt.variantIds);
  });

  it("refuse an unknown filter or a bad value with every problem listed", async () => {
    const res = await api("/api/v1/products/export", {
      method: "POST",
      body: { filters: { colour: "red", brand_ids: "x", status: "gone" }, format: "xml" },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ["filters.brand_ids", "filters.colour", "filters.status", "format"].sort(),
    );
  });

  it("of no matching row write an empty file and end done", async () => {
    const { jobId, job } = await runExport("products", { filters: { internal_ids: "NO-SUCH-PRODUCT" } });
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ total_records: 0, processed_records: 0 });
    const res = await result(jobId);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("write variants update records as CSV in the push CLI's layout", async () => {
    const { jobId, job } = await runExport("variants", { filters: { product_ids: ids }, format: "csv" });
    expect(job.summary).toMatchObject({ total_records: 4, processed_records: 4 });
    const res = await result(jobId);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = res.text.split("\r\n").filter((l) => l !== "");
    expect(header).toBe(VARIANT_CSV_COLUMNS.join(","));
    expect(rows).toHaveLength(4);
    const column = (name: string) => VARIANT_CSV_COLUMNS.indexOf(name);
    const first = rows[0]?.split(",") ?? [];
    expect(first[column("id")]).toBe(String(shirt.variantIds[0]));
    expect(first[column("prices.market_es.offer_price.amount")]).toBe("17.50");
    expect(first[column("prices.market_de.list_price.amount")]).toBe("");
  });

  it("records of a variants export are variants update records", async () => {
    const { jobId } = await runExport("variants", { filters: { product_ids: String(shirt.id) } });
    const records = lines((await result(jobId)).text);
    expect(records.map((r) => r.id)).toEqual(shirt.variantIds);
    for (const record of records) expect(VariantUpdateRecord.safeParse(record).success).toBe(true);
  });

  it("pushed back unchanged, give the same records again", async () => {
    const first = await runExport("products", { filters: { product_ids: ids } });
    const before = (await result(first.jobId)).text;
    const pushed = await submitBulk("/api/v1/products/bulk", {
      products: lines(before),
      options: { match_by: "id" },
    });
    expect((await waitForJob(pushed)).status).toBe("done");
    const variants = await runExport("variants", { filters: { product_ids: ids } });
    const variantLines = (await result(variants.jobId)).text;
    const pushedVariants = await submitBulk("/api/v1/variants/bulk", {
      variants: lines(variantLines),
      options: { match_by: "id" },
    });
    expect((await waitForJob(pushedVariants)).status).toBe("done");
    const again = await runExport("products", { filters: { product_ids: ids } });
    expect((await result(again.jobId)).text).toBe(before);
  });
});

describe("the result route", () => {
  it("answers 409 before the job is final, 404 for a job without a file or an unknown job", async () => {
    const pending = await submitBulk("/api/v1/products/export", { filters: { product_ids: ids } });
    await env.DB.prepare("UPDATE jobs SET status = 'running' WHERE id = ?").bind(pending).run();
    const early = await result(pending);
    expect(early.status).toBe(409);
    expect(early.json.code).toBe("conflict");
    const bulk = await submitBulk("/api/v1/variants/bulk", {
      variants: [{ id: shirt.variantIds[0], warehouse_stock: 5 }],
      options: { match_by: "id" },
    });
    await waitForJob(bulk);
    expect((await result(bulk)).status).toBe(404);
    expect((await result(crypto.randomUUID())).status).toBe(404);
  });

  it("gzips the file when the client accepts it, and tags it", async () => {
    const { jobId } = await runExport("products", { filters: { product_ids: ids } });
    const plain = await result(jobId, { "accept-encoding": "identity" });
    const zipped = await api(`/api/v1/jobs/${jobId}/result`, { headers: { "accept-encoding": "gzip, br" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.text).toBe(plain.text);
    // As the Worker answers it (no HTTP client in between to decode it): gzip bytes.
    const request = new Request(`https://api.test/api/v1/jobs/${jobId}/result`, {
      headers: { authorization: `Bearer ${KEYS.all}`, "accept-encoding": "gzip" },
    });
    const raw = await app.fetch(request, env, createExecutionContext());
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const unzipped = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")));
    expect(await unzipped.text()).toBe(plain.text);
    const tag = plain.headers.get("etag");
    expect(tag).toMatch(/^W\/"/);
    expect((await result(jobId, { "if-none-match": tag ?? "" })).status).toBe(304);
  });

  it("no longer finds the file once retention removed the job", async () => {
    const { jobId } = await runExport("products", { filters: { product_ids: String(other.id) } });
    expect(await env.PAYLOADS.head(resultKey(jobId))).not.toBeNull();
    await runScheduled("0 * * * *", Date.now() + 6 * 86_400_000);
    expect(await env.PAYLOADS.head(resultKey(jobId))).toBeNull();
    expect((await result(jobId)).status).toBe(404);
  });
});
