import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { processJobMessage } from "../../src/async/bulk/consumer.ts";
import type { JobMessage } from "../../src/async/bulk/types.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { api } from "../support/api.ts";
import { dryThenReal, newProductRecord, subscribeToJobEnds } from "../support/dry-run.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { deliverAll, logOutcomes, stageJob } from "../support/jobs.ts";
import { recordingQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";

/**
 * Dry runs are exact: each record is judged after what every earlier record of the payload would
 * have written, in the same chunk (a replay one record at a time) or an earlier one, so the dry
 * run's log entries, summary and status are those of the real run of the same payload on the same
 * data (dryThenReal runs both from one database and compares them).
 */

const eur = (amount: string) => ({ amount, currency: "EUR" });
const byInternalId = { options: { match_by: "internal_id" } };

const effectsOf = async (jobId: string) =>
  (
    await env.DB.prepare("SELECT COUNT(*) AS n FROM job_dry_run_effects WHERE job_id = ?")
      .bind(jobId)
      .first<{ n: number }>()
  )?.n;

describe("dry runs of payloads whose records depend on each other", () => {
  beforeAll(subscribeToJobEnds);

  for (const [where, chunkSize] of [
    ["in one chunk", 2],
    ["in two chunks", 1],
  ] as const) {
    it(`two new products sharing a variant internal_id ${where}: the second fails as in a real run`, async () => {
      const shared = unique("DRV");
      const real = await dryThenReal(
        "products_bulk_upsert",
        [
          newProductRecord(unique("DRP"), { internal_id: shared }),
          newProductRecord(unique("DRP"), { internal_id: shared }),
        ],
        byInternalId,
        chunkSize,
      );
      expect(real.job).toMatchObject({ status: "done_with_errors", summary: { succeeded_records: 1 } });
      expect(real.logs[0]).toMatchObject({
        code: "INVALID_FIELD_VALUE",
        message: "variants.0.internal_id: is the internal id of a variant of another product",
        affected_fields: ["variants.0.internal_id"],
      });
    });
  }

  for (const chunkSize of [1, 3]) {
    it(`a product created and matched again further on (chunks of ${chunkSize}) is judged as in a real run`, async () => {
      const productId = unique("DRP");
      const variantId = unique("DRV");
      const real = await dryThenReal(
        "products_bulk_upsert",
        [
          newProductRecord(productId, { internal_id: variantId }),
          { internal_id: productId, status: "published" },
          // Its variant is matched by internal_id and already has a market_es price to add an offer to.
          {
            internal_id: productId,
            variants: [{ internal_id: variantId, prices: { market_es: { offer_price: eur("15.00") } } }],
          },
        ],
        byInternalId,
        chunkSize,
      );
      // One chunk is one plan, read once: there the later records are new products lacking a name.
      expect(real.job.status).toBe(chunkSize === 1 ? "done" : "done_with_errors");
    });
  }

  it("products: a sku claimed twice by new products of one supplier and a shared name, chunk by chunk", async () => {
    const supplierId = await createSupplierRow();
    const sku = unique("DRSKU");
    const real = await dryThenReal(
      "products_bulk_upsert",
      [
        { ...newProductRecord(unique("DRP"), { sku }, "Camiseta doble"), supplier_id: supplierId },
        { ...newProductRecord(unique("DRP"), { sku }, "Camiseta doble"), supplier_id: supplierId },
        newProductRecord(unique("DRP"), {}, "Camiseta doble"),
      ],
      byInternalId,
      1,
    );
    expect(real.job.summary).toMatchObject({ succeeded_records: 2, failed_records: 1 });
    expect(real.logs[0]?.message).toMatch(/conflicts with an existing one/);
  });

  it("variants: a market priced, an internal id claimed and a price removed by earlier records", async () => {
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    const [a, b] = variantIds as [number, number];
    const claimed = unique("DRV");
    const real = await dryThenReal(
      "variants_bulk_update",
      [
        { id: a, prices: { market_fr: { list_price: eur("9.00") } } },
        { id: a, prices: { market_fr: { offer_price: eur("8.00") } } },
        { id: a, internal_id: claimed },
        { id: b, internal_id: claimed },
        { id: b, prices: { market_es: null } },
        { id: b, prices: { market_es: { offer_price: eur("1.00") } } },
      ],
      { options: { match_by: "id" } },
      1,
    );
    expect(real.logs.map((l) => l.code)).toEqual(["INVALID_FIELD_VALUE", "MISSING_REQUIRED_FIELD", null]);
  });

  it("variants: an internal id an earlier record gave up is free for a later one", async () => {
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    const [a, b] = variantIds as [number, number];
    const real = await dryThenReal(
      "variants_bulk_update",
      [
        { id: a, internal_id: unique("DRV") },
        { id: b, internal_id: `V-${a}` },
      ],
      { options: { match_by: "id" } },
      1,
    );
    expect(real.job.status).toBe("done");
  });

  it("products: a variant internal id an earlier record gave an existing variant is taken", async () => {
    const [first, second] = [await createProduct(), await createProduct()];
    const claimed = unique("DRV");
    const real = await dryThenReal(
      "products_bulk_upsert",
      [
        { id: first.id, variants: [{ id: first.variantIds[0], internal_id: claimed }] },
        { id: second.id, variants: [{ internal_id: claimed, sku: unique("S") }] },
      ],
      { options: { match_by: "id" } },
      1,
    );
    expect(real.logs[0]?.message).toBe(
      "variants.0.internal_id: is the internal id of a variant of another product",
    );
  });

  it("products: a group of full chunks whose second chunk claims a variant internal_id of its first", async () => {
    const existing = await createProduct();
    const shared = unique("DRV");
    const records: unknown[] = Array.from({ length: 400 }, () => ({
      internal_id: `P-${existing.id}`,
      status: "published",
    }));
    records[0] = newProductRecord(unique("DRP"), { internal_id: shared });
    records[399] = newProductRecord(unique("DRP"), { internal_id: shared });
    // The group's batch fails on the UNIQUE index; its chunks then apply one at a time.
    const real = await dryThenReal("products_bulk_upsert", records, byInternalId, 200);
    expect(real.job.summary).toMatchObject({ succeeded_records: 399, failed_records: 1 });
    expect(real.logs[0]?.identifiers).toEqual({
      product: { internal_id: (records[399] as { internal_id: string }).internal_id },
    });
  });

  it("price-list prices: an entry created, then changed and deleted twice by later records", async () => {
    const listId = await createPriceList();
    const params = (mode: string) => ({ options: { match_by: "variant_id", mode }, price_list_id: listId });
    const { variantIds } = await createProduct();
    const [a] = variantIds as [number];
    const upserted = await dryThenReal(
      "price_list_variant_prices_bulk_update",
      [
        { variant_id: a, price: { amount: "5.00", currency_code: "EUR" } },
        { variant_id: a, minimum_quantity: 2 },
      ],
      params("upsert"),
      1,
    );
    expect(upserted.job.status).toBe("done");
    const deleted = await dryThenReal(
      "price_list_variant_prices_bulk_update",
      [{ variant_id: a }, { variant_id: a }],
      params("delete"),
      1,
    );
    expect(deleted.logs.map((l) => [l.severity, l.code])).toEqual([
      ["WARNING", "NOT_FOUND"],
      ["INFO", null],
    ]);
  });

  it("link identifiers: internal ids claimed by an earlier chunk conflict as in a real run", async () => {
    const [eanA, eanB] = [unique("DRE"), unique("DRE")];
    await createProduct({ internalId: null, variants: [{ ean: eanA, internalId: null }] });
    await createProduct({ internalId: null, variants: [{ ean: eanB, internalId: null }] });
    const [variantId, productId] = [unique("DRLV"), unique("DRLP")];
    const real = await dryThenReal(
      "identifiers_link",
      [
        { ean: eanA, variant_internal_id: variantId, product_internal_id: productId },
        { ean: eanB, variant_internal_id: variantId },
        { ean: eanB, product_internal_id: productId },
      ],
      {},
      1,
    );
    expect(real.job.summary).toMatchObject({ succeeded_records: 1, failed_records: 2 });
  });

  it("a redelivered dry-run chunk remembers nothing twice, and a finished dry run forgets its effects", async () => {
    const productId = unique("DRP");
    const records = [newProductRecord(productId, {}), { internal_id: productId, status: "published" }];
    const jobs = recordingQueue<JobMessage>();
    const testEnv = { ...env, JOBS_QUEUE: jobs.queue, WEBHOOKS_QUEUE: recordingQueue().queue };
    const jobId = await stageJob(
      "products_bulk_upsert",
      records,
      { options: { match_by: "internal_id", dry_run: true } },
      1,
    );
    await processJobMessage(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    const remembered = await effectsOf(jobId);
    expect(remembered).toBeGreaterThan(0);
    await processJobMessage(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    expect(await effectsOf(jobId)).toBe(remembered);
    await deliverAll(testEnv, jobs, jobId);
    expect((await api(`/api/v1/jobs/${jobId}`)).json.status).toBe("done");
    expect(await logOutcomes(jobId)).toHaveLength(1);
    expect(await effectsOf(jobId)).toBe(0);
  });
});
