import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage, JobType } from "../../src/async/bulk/types.ts";
import { api } from "../support/api.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { deliverAll, logOutcomes, stageJob, submitBulk, waitForJob } from "../support/jobs.ts";
import { recordingQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";

/**
 * Every row of every table but the jobs' own (a dry run writes its job, logs and ledger only, and
 * so the jobs' kept count in row_counts) and the API keys (the test's own requests note when a key
 * was last used).
 */
async function snapshot() {
  const { results: tables } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table'
       AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'job%'
       AND name != 'api_keys' ORDER BY name`,
  ).all<{ name: string }>();
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const jobsOwn = name === "row_counts" ? ` WHERE table_name NOT LIKE 'job%'` : "";
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"${jobsOwn}`).all();
    rows[name] = results.map((r) => JSON.stringify(r)).sort();
  }
  return rows;
}

/**
 * Stages a job (chunks of `chunkSize` records) and delivers its messages one after the other until
 * it is final; returns the webhook messages its end enqueued.
 */
async function run(type: JobType, records: unknown[], params: Record<string, unknown>, chunkSize: number) {
  const jobs = recordingQueue<JobMessage>();
  const webhooks = recordingQueue();
  const testEnv = { ...env, JOBS_QUEUE: jobs.queue, WEBHOOKS_QUEUE: webhooks.queue };
  const jobId = await stageJob(type, records, params, chunkSize);
  await deliverAll(testEnv, jobs, jobId);
  const job = (await api(`/api/v1/jobs/${jobId}?fields=status,summary,dry_run`)).json;
  const logs = await logOutcomes(jobId);
  return { job, logs, webhooks: webhooks.batched.length };
}

/**
 * Runs `records` as a dry run and then for real, from the same database: the dry run changes no
 * table, and its status, summary and log entries are the real run's; only the real run notifies.
 * Returns the real run.
 */
async function dryThenReal(
  type: JobType,
  records: unknown[],
  params: { options?: Record<string, unknown>; [key: string]: unknown },
  chunkSize = 2,
) {
  const before = await snapshot();
  const dryParams = { ...params, options: { ...params.options, dry_run: true } };
  const dry = await run(type, records, dryParams, chunkSize);
  expect(await snapshot()).toEqual(before);
  const real = await run(type, records, params, chunkSize);
  expect(await snapshot()).not.toEqual(before);
  expect(dry.job.dry_run).toBe(true);
  expect(real.job.dry_run).toBe(false);
  expect({ status: dry.job.status, summary: dry.job.summary }).toEqual({
    status: real.job.status,
    summary: real.job.summary,
  });
  expect(dry.logs).toEqual(real.logs);
  expect(dry.webhooks).toBe(0);
  expect(real.webhooks).toBe(1);
  return real;
}

const eur = (amount: string) => ({ amount, currency: "EUR" });

describe("dry runs", () => {
  beforeAll(async () => {
    await env.DB.prepare("INSERT INTO webhooks (url, events, secret) VALUES (?, ?, ?)")
      .bind(
        "https://hooks.example.test/dry-run",
        JSON.stringify(["job.done", "job.done_with_errors", "job.failed"]),
        unique("whsec"),
      )
      .run();
  });

  it("products: creates, updates, a missing field and a UNIQUE conflict, over several chunks", async () => {
    const supplierId = await createSupplierRow();
    const takenSku = unique("DRSKU");
    await createProduct({ supplierId, variants: [{ sku: takenSku }] });
    const existing = await createProduct();
    const created = unique("DRP");
    const newProduct = (internalId: string, sku: string, extra: Record<string, unknown> = {}) => ({
      internal_id: internalId,
      translations: { "es-ES": { name: `Producto ${internalId}` } },
      variants: [{ sku, prices: { market_es: { list_price: eur("19.90") } } }],
      ...extra,
    });
    const real = await dryThenReal(
      "products_bulk_upsert",
      [
        newProduct(created, unique("S")),
        {
          internal_id: `P-${existing.id}`,
          status: "unpublished",
          translations: { "en-GB": { name: "Hat" } },
        },
        { internal_id: unique("DRP"), translations: { "es-ES": { name: "Sin variantes" } } },
        newProduct(unique("DRP"), takenSku, { supplier_id: supplierId }),
        { internal_id: unique("DRP"), translations: { "es-ES": { name: "Mal" } }, variants: "none" },
      ],
      { options: { match_by: "internal_id" } },
    );
    expect(real.job.summary).toMatchObject({ succeeded_records: 2, failed_records: 3 });
    expect(real.logs.map((l) => l.code)).toEqual([
      "MISSING_REQUIRED_FIELD",
      "INVALID_FIELD_VALUE",
      "INVALID_FIELD_VALUE",
      null,
    ]);
    expect(real.logs[1]?.message).toMatch(/conflicts with an existing one/);
    const list = await api(`/api/v1/products?internal_ids=${created}`);
    expect(list.json.data).toHaveLength(1);
  });

  it("variants: an update, NOT_FOUND, an invalid value and a UNIQUE conflict", async () => {
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    const [first, second] = variantIds as [number, number];
    const real = await dryThenReal(
      "variants_bulk_update",
      [
        { id: first, warehouse_stock: 42, prices: { market_es: { list_price: eur("7.50") } } },
        { id: 999_999_999, warehouse_stock: 1 },
        { id: second, warehouse_stock: -1 },
        { id: second, internal_id: `V-${first}` },
      ],
      { options: { match_by: "id" } },
    );
    expect(real.job.summary).toMatchObject({ succeeded_records: 1, failed_records: 3 });
    expect(real.logs.map((l) => l.code)).toEqual([
      "NOT_FOUND",
      "INVALID_FIELD_VALUE",
      "INVALID_FIELD_VALUE",
      null,
    ]);
    expect(real.logs[2]?.message).toMatch(/conflicts with an existing one/);
  });

  it("price-list prices: upserts, a delete warning and a missing price, in both modes", async () => {
    const list = await api("/api/v1/price-lists", {
      method: "POST",
      body: {
        internal_id: unique("DRPL"),
        is_active: true,
        global_discount: "0",
        category_discounts: [],
        brand_discounts: [],
      },
    });
    const listId = list.json.id as number;
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    const [first, second] = variantIds as [number, number];
    const price = (amount: string) => ({ amount, currency_code: "EUR" });
    await dryThenReal(
      "price_list_variant_prices_bulk_update",
      [{ variant_id: first, price: price("5.00") }, { variant_id: second }, { variant_id: 999_999_999 }],
      { options: { match_by: "variant_id", mode: "upsert" }, price_list_id: listId },
    );
    const deleted = await dryThenReal(
      "price_list_variant_prices_bulk_update",
      [{ variant_id: first }, { variant_id: second }],
      { options: { match_by: "variant_id", mode: "delete" }, price_list_id: listId },
    );
    expect(deleted.logs.map((l) => [l.severity, l.code])).toEqual([
      ["WARNING", "NOT_FOUND"],
      ["INFO", null],
    ]);
  });

  it("link identifiers: a link, NOT_FOUND and a UNIQUE conflict", async () => {
    const ean = unique("DRE");
    const p = await createProduct({ internalId: null, variants: [{ ean, internalId: null }] });
    const other = await createProduct();
    const real = await dryThenReal(
      "identifiers_link",
      [
        { ean, product_internal_id: unique("DRLP"), variant_internal_id: unique("DRLV") },
        { ean: unique("NOPE"), variant_internal_id: unique("DRLV") },
        { ean, variant_internal_id: `V-${other.variantIds[0]}` },
      ],
      {},
    );
    expect(real.job.summary).toMatchObject({ succeeded_records: 1, failed_records: 2 });
    expect(real.logs.map((l) => l.code)).toEqual(["NOT_FOUND", "INVALID_FIELD_VALUE", null]);
    expect(real.logs[1]?.message).toMatch(/conflicts with an existing one/);
    const product = (await api(`/api/v1/products/${p.id}?fields=internal_id`)).json;
    expect(product.internal_id).toMatch(/^DRLP-/);
  });

  it("judges each record against the catalog as it stands: a product a previous chunk would create is not there", async () => {
    const internalId = unique("DRP");
    const records = [
      {
        internal_id: internalId,
        translations: { "es-ES": { name: "Nuevo" } },
        variants: [{ sku: unique("S"), prices: { market_es: { list_price: eur("3.00") } } }],
      },
      { internal_id: internalId, status: "published" },
    ];
    const params = { options: { match_by: "internal_id" } };
    const dry = await run(
      "products_bulk_upsert",
      records,
      { options: { ...params.options, dry_run: true } },
      1,
    );
    const real = await run("products_bulk_upsert", records, params, 1);
    expect(real.job.status).toBe("done");
    expect(dry.job.status).toBe("done_with_errors");
    expect(dry.logs[0]).toMatchObject({
      code: "MISSING_REQUIRED_FIELD",
      identifiers: { product: { internal_id: internalId } },
    });
  });

  it("is accepted by every bulk route as options.dry_run, and the job says so only when asked", async () => {
    const { variantIds } = await createProduct();
    const jobId = await submitBulk("/api/v1/variants/bulk", {
      variants: [{ id: variantIds[0], warehouse_stock: 77 }],
      options: { match_by: "id", dry_run: true },
    });
    const job = await waitForJob(jobId);
    expect(job).not.toHaveProperty("dry_run");
    expect((await api(`/api/v1/jobs/${jobId}?fields=dry_run`)).json).toEqual({ id: jobId, dry_run: true });
    const stock = await env.DB.prepare("SELECT warehouse_stock FROM variants WHERE id = ?")
      .bind(variantIds[0])
      .first<{ warehouse_stock: number }>();
    expect(stock?.warehouse_stock).toBe(5);
    // Link identifiers had no options: `options` is optional there, and still strict.
    const ean = unique("DRE");
    const items = [{ ean, variant_internal_id: unique("DRLV") }];
    const linked = await submitBulk("/api/v1/variants/link-identifiers", {
      items,
      options: { dry_run: true },
    });
    expect((await api(`/api/v1/jobs/${linked}?fields=dry_run`)).json.dry_run).toBe(true);
    await waitForJob(linked);
    const bad = await api("/api/v1/variants/link-identifiers", {
      method: "POST",
      body: { items, options: { dry_run: "yes", match_by: "ean" } },
    });
    expect(bad.status).toBe(400);
  });
});
