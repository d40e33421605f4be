import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { type JobView, jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

interface VariantPrice {
  variant_id: number;
  price: { amount: string; currency: string };
  min_quantity: number;
  quantity_factor: number;
}

async function pricesOf(listId: number): Promise<VariantPrice[]> {
  const res = await api(
    `/api/v1/price-lists/${listId}/variant-prices?per_page=500&fields=price,min_quantity,quantity_factor`,
  );
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

async function runPrices(
  listId: number,
  options: { match_by: string; mode: string },
  prices: unknown[],
): Promise<{ jobId: string; job: JobView }> {
  const jobId = await submitBulk(`/api/v1/price-lists/${listId}/variant-prices/bulk`, { prices, options });
  const job = await waitForJob(jobId);
  expect(job.type).toBe("price_list_variant_prices_bulk_update");
  return { jobId, job };
}

const eur = (amount: string) => ({ amount, currency_code: "EUR" });
const UPSERT = (match_by: string) => ({ match_by, mode: "upsert" });
const DELETE = (match_by: string) => ({ match_by, mode: "delete" });

async function seedPrice(listId: number, variantId: number, amount = "9.99", min = 1, factor = 1) {
  await env.DB.prepare(
    "INSERT INTO price_list_variant_prices (price_list_id, variant_id, amount, currency, min_quantity, quantity_factor) VALUES (?, ?, ?, 'EUR', ?, ?)",
  )
    .bind(listId, variantId, amount, min, factor)
    .run();
}

describe("price-list variant prices bulk: upsert", () => {
  it("creates entries with defaults 1 for minimum_quantity and quantity_multiple", async () => {
    const listId = await createPriceList();
    const p = await createProduct({ variants: [{}, {}] });
    const [a, b] = p.variantIds as [number, number];
    const { job } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: a, price: eur("12.5") },
      { variant_id: b, price: eur("8"), minimum_quantity: 5, quantity_multiple: 5 },
    ]);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ total_records: 2, succeeded_records: 2, failed_records: 0 });
    expect(await pricesOf(listId)).toEqual([
      {
        variant_id: a,
        price: { amount: "12.50", currency: "EUR" },
        min_quantity: 1,
        quantity_factor: 1,
      },
      {
        variant_id: b,
        price: { amount: "8.00", currency: "EUR" },
        min_quantity: 5,
        quantity_factor: 5,
      },
    ]);
  });

  it("updates only the fields sent and leaves absent entries unchanged", async () => {
    const listId = await createPriceList();
    const p = await createProduct({ variants: [{}, {}, {}] });
    const [a, b, c] = p.variantIds as [number, number, number];
    await seedPrice(listId, a, "10.00", 2, 3);
    await seedPrice(listId, b, "20.00", 4, 4);
    await seedPrice(listId, c, "30.00", 1, 1);
    const { job } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: a, minimum_quantity: 6 },
      { variant_id: b, price: eur("19.99") },
    ]);
    expect(job.status).toBe("done");
    const byId = new Map((await pricesOf(listId)).map((p) => [p.variant_id, p]));
    expect(byId.get(a)).toMatchObject({ price: { amount: "10.00" }, min_quantity: 6, quantity_factor: 3 });
    expect(byId.get(b)).toMatchObject({ price: { amount: "19.99" }, min_quantity: 4, quantity_factor: 4 });
    expect(byId.get(c)).toMatchObject({ price: { amount: "30.00" }, min_quantity: 1, quantity_factor: 1 });
  });

  it("creating an entry without price is MISSING_REQUIRED_FIELD", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: vid, minimum_quantity: 2 },
    ]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "MISSING_REQUIRED_FIELD",
        affected_fields: ["price"],
        identifiers: { variant: { variant_id: vid } },
      }),
    ]);
    expect(await pricesOf(listId)).toEqual([]);
  });

  it("refuses a currency other than EUR with INVALID_FIELD_VALUE", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const { jobId, job } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: p.variantIds[0], price: { amount: "5.00", currency_code: "GBP" } },
    ]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "INVALID_FIELD_VALUE", affected_fields: ["price.currency_code"] }),
    ]);
    expect(await pricesOf(listId)).toEqual([]);
  });

  it("refuses minimum_quantity or quantity_multiple below 1 and malformed amounts", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const { jobId } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: p.variantIds[0], price: eur("1.234"), minimum_quantity: 0, quantity_multiple: -1 },
    ]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error?.code).toBe("INVALID_FIELD_VALUE");
    expect([...(error?.affected_fields ?? [])].sort()).toEqual([
      "minimum_quantity",
      "price.amount",
      "quantity_multiple",
    ]);
  });

  it("duplicates apply in payload order: the later wins", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { job } = await runPrices(listId, UPSERT("variant_id"), [
      { variant_id: vid, price: eur("1.00"), minimum_quantity: 3 },
      { variant_id: vid, price: eur("2.00") },
      { variant_id: vid, quantity_multiple: 7 },
    ]);
    expect(job.status).toBe("done");
    expect(await pricesOf(listId)).toEqual([
      { variant_id: vid, price: { amount: "2.00", currency: "EUR" }, min_quantity: 3, quantity_factor: 7 },
    ]);
  });

  it("does not touch another price list's entries", async () => {
    const listA = await createPriceList();
    const listB = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    await seedPrice(listB, vid, "50.00");
    await runPrices(listA, UPSERT("variant_id"), [{ variant_id: vid, price: eur("1") }]);
    expect((await pricesOf(listB))[0]?.price.amount).toBe("50.00");
    expect((await pricesOf(listA))[0]?.price.amount).toBe("1.00");
  });
});

describe("price-list variant prices bulk: match_by", () => {
  it("matches by variant_internal_id", async () => {
    const listId = await createPriceList();
    const internalId = unique("VIP");
    const p = await createProduct({ variants: [{ internalId }] });
    const { job } = await runPrices(listId, UPSERT("variant_internal_id"), [
      { variant_internal_id: internalId, price: eur("3") },
    ]);
    expect(job.status).toBe("done");
    expect((await pricesOf(listId))[0]?.variant_id).toBe(p.variantIds[0]);
  });

  it("matches by ean; two variants with one EAN are AMBIGUOUS_MATCH", async () => {
    const listId = await createPriceList();
    const ean = unique("E");
    const shared = unique("SH");
    const p = await createProduct({ variants: [{ ean }, { ean: shared }, { ean: shared }] });
    const { jobId, job } = await runPrices(listId, UPSERT("ean"), [
      { ean, price: eur("3") },
      { ean: shared, price: eur("4") },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect((await pricesOf(listId)).map((x) => x.variant_id)).toEqual([p.variantIds[0]]);
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "AMBIGUOUS_MATCH", identifiers: { variant: { ean: shared } } }),
    ]);
  });

  it("matches by sku_supplier (sku case-insensitive, supplier by internal id)", async () => {
    const listId = await createPriceList();
    const supplierInternal = unique("PS");
    const supplierId = await createSupplierRow(supplierInternal);
    const sku = unique("Sku");
    const p = await createProduct({ supplierId, variants: [{ sku }] });
    const { job } = await runPrices(listId, UPSERT("sku_supplier"), [
      { sku: sku.toLowerCase(), supplier_internal_id: supplierInternal, price: eur("3") },
    ]);
    expect(job.status).toBe("done");
    expect((await pricesOf(listId))[0]?.variant_id).toBe(p.variantIds[0]);
  });

  it("a missing identifier is INVALID_IDENTIFIER with the record index; unmatched is NOT_FOUND", async () => {
    const listId = await createPriceList();
    const { jobId, job } = await runPrices(listId, UPSERT("variant_internal_id"), [
      { price: eur("1") },
      { variant_internal_id: unique("nope"), price: eur("1") },
    ]);
    expect(job.status).toBe("failed");
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors.map((e) => [e.code, e.identifiers])).toEqual([
      ["INVALID_IDENTIFIER", { record: { index: 0 } }],
      ["NOT_FOUND", { variant: { variant_internal_id: expect.any(String) } }],
    ]);
  });

  it("an unknown price list is 404 and creates no job", async () => {
    const before = (await api("/api/v1/jobs?per_page=1")).json.pagination.total;
    const res = await api("/api/v1/price-lists/99999999/variant-prices/bulk", {
      method: "POST",
      body: { prices: [{ variant_id: 1, price: eur("1") }], options: UPSERT("variant_id") },
    });
    expect(res.status).toBe(404);
    expect((await api("/api/v1/jobs?per_page=1")).json.pagination.total).toBe(before);
  });

  it("mode is required: 400 and no job", async () => {
    const listId = await createPriceList();
    const res = await api(`/api/v1/price-lists/${listId}/variant-prices/bulk`, {
      method: "POST",
      body: { prices: [{ variant_id: 1 }], options: { match_by: "variant_id" } },
    });
    expect(res.status).toBe(400);
  });
});

describe("price-list variant prices bulk: delete", () => {
  it("removes the listed prices and keeps the others", async () => {
    const listId = await createPriceList();
    const p = await createProduct({ variants: [{}, {}] });
    const [a, b] = p.variantIds as [number, number];
    await seedPrice(listId, a);
    await seedPrice(listId, b);
    const { job } = await runPrices(listId, DELETE("variant_id"), [{ variant_id: a }]);
    expect(job.status).toBe("done");
    expect((await pricesOf(listId)).map((x) => x.variant_id)).toEqual([b]);
  });

  it("a matched variant without a price is a WARNING NOT_FOUND and counts as succeeded", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runPrices(listId, DELETE("variant_id"), [{ variant_id: vid }]);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({
      succeeded_records: 1,
      failed_records: 0,
      log_warning_count: 1,
      log_error_count: 0,
    });
    const logs = await jobLogs(jobId);
    expect(logs[0]).toMatchObject({
      severity: "WARNING",
      code: "NOT_FOUND",
      identifiers: { variant: { variant_id: vid } },
    });
    expect(logs.at(-1)).toMatchObject({ severity: "INFO", code: null });
  });

  it("no matching variant is an ERROR NOT_FOUND", async () => {
    const listId = await createPriceList();
    const { jobId, job } = await runPrices(listId, DELETE("ean"), [{ ean: unique("none") }]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", identifiers: { variant: { ean: expect.any(String) } } }),
    ]);
  });

  it("deletes by every match_by", async () => {
    const listId = await createPriceList();
    const supplierInternal = unique("DS");
    const supplierId = await createSupplierRow(supplierInternal);
    const ean = unique("DE");
    const internalId = unique("DI");
    const sku = unique("DK");
    const p = await createProduct({
      supplierId,
      variants: [{ ean }, { internalId }, { sku }, {}],
    });
    const [a, b, c, d] = p.variantIds as [number, number, number, number];
    for (const v of [a, b, c, d]) await seedPrice(listId, v);
    for (const [options, record] of [
      [DELETE("ean"), { ean }],
      [DELETE("variant_internal_id"), { variant_internal_id: internalId }],
      [DELETE("sku_supplier"), { sku: sku.toUpperCase(), supplier_internal_id: supplierInternal }],
    ] as const) {
      const { job } = await runPrices(listId, options, [record]);
      expect(job.status, JSON.stringify(record)).toBe("done");
    }
    expect((await pricesOf(listId)).map((x) => x.variant_id)).toEqual([d]);
  });

  it("a duplicate delete in one payload: the second finds nothing (WARNING)", async () => {
    const listId = await createPriceList();
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    await seedPrice(listId, vid);
    const { jobId, job } = await runPrices(listId, DELETE("variant_id"), [
      { variant_id: vid },
      { variant_id: vid },
    ]);
    expect(job.status).toBe("done");
    expect((await jobLogs(jobId)).map((l) => l.severity)).toEqual(["WARNING", "INFO"]);
    expect(await pricesOf(listId)).toEqual([]);
  });
});
