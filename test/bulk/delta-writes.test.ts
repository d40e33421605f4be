import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { JobMessage } from "../../src/async/bulk/types.ts";
import { api } from "../support/api.ts";
import { createCategoryRow, createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { deliverAll, stageJob, submitBulk, waitForJob } from "../support/jobs.ts";
import { recordingQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";

/*
 * DECISIONS §14, "Writes that change nothing cost nothing": a record whose sent values equal what
 * is stored writes no row and keeps updated_at; a changed record writes only what differs. What a
 * job wrote is its `writes` field (D1's rows written, index entries included).
 */

const OLD = "2020-01-01T00:00:00Z";

async function run(path: string, body: Record<string, unknown>) {
  const jobId = await submitBulk(path, body);
  const job = await waitForJob(jobId);
  expect(job.summary.failed_records, JSON.stringify(job)).toBe(0);
  const res = await api(`/api/v1/jobs/${jobId}?fields=writes`);
  return res.json.writes as { unchanged_records: number; rows_written: number };
}

const products = (records: unknown[], dryRun = false) =>
  run("/api/v1/products/bulk", { products: records, options: { match_by: "internal_id", dry_run: dryRun } });
const variants = (records: unknown[]) =>
  run("/api/v1/variants/bulk", { variants: records, options: { match_by: "id" } });

/** Marks rows as last changed long ago, so a write that stamps them shows. */
async function age(table: "products" | "variants" | "price_list_variant_prices", ids: number[], key = "id") {
  await env.DB.prepare(`UPDATE ${table} SET updated_at = ? WHERE ${key} IN (SELECT value FROM json_each(?))`)
    .bind(OLD, JSON.stringify(ids))
    .run();
}

async function stamps(table: "products" | "variants", ids: number[]) {
  const { results } = await env.DB.prepare(
    `SELECT updated_at FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  )
    .bind(JSON.stringify(ids))
    .all<{ updated_at: string }>();
  return results.map((r) => r.updated_at);
}

async function productRecord() {
  const supplier = await createSupplierRow();
  const [c1, c2, c3] = [await createCategoryRow(), await createCategoryRow(), await createCategoryRow()];
  const internalId = unique("DP");
  const record = {
    internal_id: internalId,
    supplier_id: supplier,
    category_ids: [c1, c2],
    images: [{ url: "https://img.example/a.jpg" }, { url: "https://img.example/b.jpg" }],
    translations: { "es-ES": { name: `Producto ${internalId}`, description: "Desc" } },
    variants: [
      {
        internal_id: `${internalId}-A`,
        sku: `${internalId}-A`,
        warehouse_stock: 5,
        prices: { market_es: { list_price: { amount: "10.00", currency: "EUR" } } },
        translations: { "es-ES": { name: "Talla A" } },
      },
    ],
  };
  return { record, spare: c3 };
}

async function productIds(internalId: string) {
  const row = await env.DB.prepare(
    "SELECT p.id AS id, v.id AS vid FROM products p JOIN variants v ON v.product_id = p.id WHERE p.internal_id = ?",
  )
    .bind(internalId)
    .first<{ id: number; vid: number }>();
  if (!row) throw new Error(`no product ${internalId}`);
  return row;
}

describe("bulk writes that change nothing cost nothing", () => {
  it("products: a re-sent record equal to what is stored writes no row and keeps updated_at", async () => {
    const { record } = await productRecord();
    const first = await products([record]);
    expect(first.unchanged_records).toBe(0);
    expect(first.rows_written).toBeGreaterThan(10);
    const { id, vid } = await productIds(record.internal_id);
    await age("products", [id]);
    await age("variants", [vid]);
    expect(await products([record])).toEqual({ unchanged_records: 1, rows_written: 0 });
    expect(await stamps("products", [id])).toEqual([OLD]);
    expect(await stamps("variants", [vid])).toEqual([OLD]);
  });

  it("products: a changed record writes only the members and rows that differ", async () => {
    const { record, spare } = await productRecord();
    await products([record]);
    const { id, vid } = await productIds(record.internal_id);
    await age("products", [id]);
    await age("variants", [vid]);
    const imageIds = async () =>
      (
        await env.DB.prepare("SELECT id FROM product_images WHERE product_id = ? ORDER BY position")
          .bind(id)
          .all<{ id: number }>()
      ).results.map((r) => r.id);
    const before = await imageIds();
    const changed = {
      ...record,
      // The second category swapped; the second image's url changed: one member each.
      category_ids: [record.category_ids[0], spare],
      images: [record.images[0], { url: "https://img.example/c.jpg" }],
    };
    // A category link deleted (1) and inserted (row, primary key and category index: 3); an image's
    // url updated (1); the product stamped (row and products_updated_idx: 2). Nothing else.
    expect(await products([changed])).toEqual({ unchanged_records: 0, rows_written: 7 });
    expect(await imageIds()).toEqual(before);
    expect((await stamps("products", [id]))[0]).not.toBe(OLD);
    expect(await stamps("variants", [vid])).toEqual([OLD]);
  });

  it("variants: an equal record writes nothing; a changed price writes that price and stamps its variant and product", async () => {
    const p = await createProduct({
      variants: [{ warehouseStock: 5, prices: { market_es: { list: "10.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    await age("variants", [vid]);
    const same = {
      id: vid,
      warehouse_stock: 5,
      prices: { market_es: { list_price: { amount: "10.00", currency: "EUR" } } },
    };
    expect(await variants([same])).toEqual({ unchanged_records: 1, rows_written: 0 });
    expect(await stamps("variants", [vid])).toEqual([OLD]);
    expect(await stamps("products", [p.id])).toEqual(["2026-01-10T10:00:00Z"]);
    const cheaper = { ...same, prices: { market_es: { list_price: { amount: "9.50", currency: "EUR" } } } };
    // The price row (1), the variant's stamp (1), the product's stamp (row + updated index: 2).
    expect(await variants([cheaper])).toEqual({ unchanged_records: 0, rows_written: 4 });
    expect((await stamps("variants", [vid]))[0]).not.toBe(OLD);
    expect((await stamps("products", [p.id]))[0]).not.toBe("2026-01-10T10:00:00Z");
  });

  it("a record re-sent in the second its row was stamped still counts as unchanged", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const record = { id: vid, warehouse_stock: 77 };
    expect(await variants([record])).toMatchObject({ unchanged_records: 0 });
    expect(await variants([record])).toEqual({ unchanged_records: 1, rows_written: 0 });
  });

  it("identifiers link: linking ids already linked writes nothing", async () => {
    const supplier = await createSupplierRow(unique("LS"));
    const p = await createProduct({ supplierId: supplier });
    const vid = p.variantIds[0] as number;
    await age("variants", [vid]);
    const link = { ean: `84${vid}`, variant_internal_id: `V-${vid}`, product_internal_id: `P-${p.id}` };
    expect(await run("/api/v1/variants/link-identifiers", { items: [link] })).toEqual({
      unchanged_records: 1,
      rows_written: 0,
    });
    expect(await stamps("products", [p.id])).toEqual(["2026-01-10T10:00:00Z"]);
  });

  it("price-list prices: an equal entry writes nothing; a changed one writes its row", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const entry = { variant_id: vid, price: { amount: "12.00", currency_code: "EUR" }, minimum_quantity: 2 };
    const path = `/api/v1/price-lists/${listId}/variant-prices/bulk`;
    const options = { match_by: "variant_id", mode: "upsert" };
    expect((await run(path, { prices: [entry], options })).unchanged_records).toBe(0);
    await age("price_list_variant_prices", [vid], "variant_id");
    expect(await run(path, { prices: [entry], options })).toEqual({ unchanged_records: 1, rows_written: 0 });
    expect(await run(path, { prices: [{ ...entry, minimum_quantity: 3 }], options })).toEqual({
      unchanged_records: 0,
      rows_written: 1,
    });
  });

  it("counts a job mixing created, changed and unchanged records exactly, and its dry run the same", async () => {
    const [a, b, c] = [await productRecord(), await productRecord(), await productRecord()];
    await products([a.record, b.record]);
    const existing = [await productIds(a.record.internal_id), await productIds(b.record.internal_id)];
    await age(
      "products",
      existing.map((e) => e.id),
    );
    await age(
      "variants",
      existing.map((e) => e.vid),
    );
    const payload = [
      a.record,
      { ...b.record, variants: [{ ...b.record.variants[0], warehouse_stock: 6 }] },
      c.record,
    ];
    const dry = await products(payload, true);
    const real = await products(payload);
    expect(real.unchanged_records).toBe(1);
    expect(dry).toEqual(real);
    // The changed variant's stock (1) and its product's stamp (2), plus everything the new product wrote.
    const created = await products([(await productRecord()).record]);
    expect(real.rows_written).toBe(3 + created.rows_written);
  });

  it("counts the rows of every chunk once, each added with the next commit or the job's end", async () => {
    const made = [await createProduct(), await createProduct(), await createProduct()];
    const records = made.map((p, i) => ({ id: p.variantIds[0], warehouse_stock: 100 + i }));
    const jobId = await stageJob("variants_bulk_update", records, { options: { match_by: "id" } }, 1);
    const jobs = recordingQueue<JobMessage>();
    expect(await deliverAll({ ...env, JOBS_QUEUE: jobs.queue }, jobs, jobId)).toBe(3);
    // Per chunk: the variant's stock (1) and its product's stamp (row and updated index: 2).
    const res = await api(`/api/v1/jobs/${jobId}?fields=writes`);
    expect(res.json.writes).toEqual({ unchanged_records: 0, rows_written: 9 });
  });
});
