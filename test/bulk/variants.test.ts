import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { type JobView, jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

const FIELDS =
  "internal_id,sku,ean,status,min_quantity,quantity_factor,supplier_stock,warehouse_stock,cost_price,prices,name";

/** Every variant of a product, with the written fields, in es-ES / en-GB / fr-FR (markets es, en, fr). */
async function variantsOf(productId: number, locales = "es-ES,en-GB,fr-FR") {
  const res = await api(`/api/v1/products/${productId}/variants?fields=${FIELDS}&locales=${locales}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data as Record<string, any>[];
}

async function variantOf(productId: number, variantId: number) {
  const found = (await variantsOf(productId)).find((v) => v.id === variantId);
  if (!found) throw new Error(`variant ${variantId} not found`);
  return found;
}

async function runVariants(matchBy: string, variants: unknown[]): Promise<{ jobId: string; job: JobView }> {
  const jobId = await submitBulk("/api/v1/variants/bulk", { variants, options: { match_by: matchBy } });
  return { jobId, job: await waitForJob(jobId) };
}

const eur = (amount: string) => ({ amount, currency: "EUR" });

/** Summary counters agree with the logs, and the last entry is the INFO summary. */
async function expectConsistent(jobId: string, job: JobView) {
  const logs = await jobLogs(jobId, "per_page=500");
  const count = (s: string) => logs.filter((l) => l.severity === s).length;
  expect(job.summary).toMatchObject({
    processed_records: job.summary.total_records,
    log_info_count: count("INFO"),
    log_warning_count: count("WARNING"),
    log_error_count: count("ERROR"),
  });
  const { succeeded_records = 0, failed_records = 0, processed_records } = job.summary;
  expect(succeeded_records + failed_records).toBe(processed_records);
  expect(logs.at(-1)).toMatchObject({ severity: "INFO", code: null, identifiers: null });
  expect(logs.filter((l) => l.severity === "INFO")).toHaveLength(1);
  expect(logs.at(-1)?.message).toContain(`${job.summary.failed_records} failed`);
  return logs;
}

describe("variants bulk update: matching", () => {
  it("matches by id", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runVariants("id", [{ id: vid, warehouse_stock: 42 }]);
    expect(job.status).toBe("done");
    expect((await variantOf(p.id, vid)).warehouse_stock).toBe(42);
    await expectConsistent(jobId, job);
  });

  it("matches by internal_id", async () => {
    const internalId = unique("VI");
    const p = await createProduct({ variants: [{ internalId }] });
    const { job } = await runVariants("internal_id", [{ internal_id: internalId, supplier_stock: 7 }]);
    expect(job.status).toBe("done");
    expect((await variantOf(p.id, p.variantIds[0] as number)).supplier_stock).toBe(7);
  });

  it("matches by ean", async () => {
    const ean = unique("EAN");
    const p = await createProduct({ variants: [{ ean }] });
    const { job } = await runVariants("ean", [{ ean, status: "unpublished" }]);
    expect(job.status).toBe("done");
    expect((await variantOf(p.id, p.variantIds[0] as number)).status).toBe("unpublished");
  });

  it("matches by sku_supplier: sku case-insensitively, supplier by its internal id", async () => {
    const supplierInternal = unique("SUPI");
    const supplierId = await createSupplierRow(supplierInternal);
    const sku = unique("MixedCase");
    const p = await createProduct({ supplierId, variants: [{ sku }] });
    const { job } = await runVariants("sku_supplier", [
      { sku: sku.toUpperCase(), supplier_internal_id: supplierInternal, warehouse_stock: 11 },
    ]);
    expect(job.status).toBe("done");
    const v = await variantOf(p.id, p.variantIds[0] as number);
    expect(v.warehouse_stock).toBe(11);
    expect(v.sku).toBe(sku); // the match key is not a write
  });

  it("sku_supplier does not match the same sku of another supplier: NOT_FOUND", async () => {
    const a = await createSupplierRow(unique("SA"));
    const bInternal = unique("SB");
    await createSupplierRow(bInternal);
    const sku = unique("SK");
    await createProduct({ supplierId: a, variants: [{ sku }] });
    const { jobId, job } = await runVariants("sku_supplier", [
      { sku, supplier_internal_id: bInternal, warehouse_stock: 1 },
    ]);
    expect(job.status).toBe("failed");
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({
      code: "NOT_FOUND",
      identifiers: { variant: { sku, supplier_internal_id: bInternal } },
    });
  });

  it("an unmatched identifier is NOT_FOUND", async () => {
    const { jobId, job } = await runVariants("id", [{ id: 987654321, warehouse_stock: 1 }]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", identifiers: { variant: { id: 987654321 } } }),
    ]);
    await expectConsistent(jobId, job);
  });

  it("two variants with the same EAN are AMBIGUOUS_MATCH and neither changes", async () => {
    const ean = unique("DUPEAN");
    const p = await createProduct({
      variants: [
        { ean, warehouseStock: 1 },
        { ean, warehouseStock: 2 },
      ],
    });
    const { jobId, job } = await runVariants("ean", [{ ean, warehouse_stock: 99 }]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "AMBIGUOUS_MATCH", identifiers: { variant: { ean } } }),
    ]);
    expect((await variantsOf(p.id)).map((v) => v.warehouse_stock)).toEqual([1, 2]);
  });

  it("a missing identifier is INVALID_IDENTIFIER with the record index", async () => {
    const p = await createProduct();
    const { jobId, job } = await runVariants("id", [
      { id: p.variantIds[0], warehouse_stock: 3 },
      { warehouse_stock: 4 },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "INVALID_IDENTIFIER",
        identifiers: { record: { index: 1 } },
        affected_fields: ["id"],
      }),
    ]);
  });

  it("sku_supplier without supplier_internal_id is INVALID_IDENTIFIER", async () => {
    const { jobId } = await runVariants("sku_supplier", [{ sku: "X", warehouse_stock: 1 }]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_IDENTIFIER", affected_fields: ["supplier_internal_id"] });
  });

  it("an identifier of the wrong type is INVALID_IDENTIFIER", async () => {
    const { jobId } = await runVariants("id", [{ id: "abc", warehouse_stock: 1 }]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_IDENTIFIER", affected_fields: ["id"] });
  });
});

describe("variants bulk update: fields", () => {
  it("updates stocks, status, min_quantity, quantity_factor and cost_price", async () => {
    const p = await createProduct({ variants: [{ status: "published" }] });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      {
        id: vid,
        warehouse_stock: 10,
        supplier_stock: 20,
        status: "unpublished",
        min_quantity: 2,
        quantity_factor: 3,
        cost_price: eur("7.5"),
      },
    ]);
    expect(job.status).toBe("done");
    expect(await variantOf(p.id, vid)).toMatchObject({
      warehouse_stock: 10,
      supplier_stock: 20,
      status: "unpublished",
      min_quantity: 2,
      quantity_factor: 3,
      cost_price: { amount: "7.50", currency: "EUR" },
    });
  });

  it("cost_price in another currency is INVALID_FIELD_VALUE and nothing changes", async () => {
    const p = await createProduct({ variants: [{ warehouseStock: 5 }] });
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runVariants("id", [
      { id: vid, warehouse_stock: 50, cost_price: { amount: "1.00", currency: "GBP" } },
    ]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "INVALID_FIELD_VALUE", affected_fields: ["cost_price.currency"] }),
    ]);
    expect((await variantOf(p.id, vid)).warehouse_stock).toBe(5);
  });

  it("cost_price null clears it", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    await runVariants("id", [{ id: vid, cost_price: null }]);
    expect((await variantOf(p.id, vid)).cost_price).toBeNull();
  });

  it("out-of-range values are INVALID_FIELD_VALUE with every offending path", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId } = await runVariants("id", [
      { id: vid, min_quantity: 0, warehouse_stock: -1, status: "gone", colour: "red" },
    ]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error?.code).toBe("INVALID_FIELD_VALUE");
    expect([...(error?.affected_fields ?? [])].sort()).toEqual(
      ["colour", "min_quantity", "status", "warehouse_stock"].sort(),
    );
  });

  it("a value of the wrong type is INVALID_FIELD_VALUE, not MISSING_REQUIRED_FIELD", async () => {
    const p = await createProduct();
    const { jobId } = await runVariants("id", [{ id: p.variantIds[0], warehouse_stock: "5", status: null }]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error?.code).toBe("INVALID_FIELD_VALUE");
    expect(error?.affected_fields?.sort()).toEqual(["status", "warehouse_stock"]);
  });

  it("NOT_FOUND outranks the field errors of the same record", async () => {
    const { jobId } = await runVariants("id", [{ id: 987654322, warehouse_stock: -3 }]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "NOT_FOUND", affected_fields: ["warehouse_stock"] });
  });

  it("translations merge per locale and a null locale removes it", async () => {
    const p = await createProduct({ variants: [{ names: { "es-ES": "Rojo", "en-GB": "Red" } }] });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      { id: vid, translations: { "fr-FR": { name: "Rouge" }, "en-GB": null } },
    ]);
    expect(job.status).toBe("done");
    const v = await variantOf(p.id, vid);
    expect(v.translations).toEqual({
      "es-ES": { name: "Rojo" },
      "en-GB": { name: null },
      "fr-FR": { name: "Rouge" },
    });
  });

  it("an unsupported locale in translations is INVALID_FIELD_VALUE", async () => {
    const p = await createProduct();
    const { jobId } = await runVariants("id", [
      { id: p.variantIds[0], translations: { "xx-XX": { name: "?" } } },
    ]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_FIELD_VALUE", affected_fields: ["translations.xx-XX"] });
  });
});

describe("variants bulk update: market prices", () => {
  it("merges a market price field by field", async () => {
    const p = await createProduct({
      variants: [{ prices: { market_es: { list: "20.00", offer: "18.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [{ id: vid, prices: { market_es: { list_price: eur("25") } } }]);
    expect(job.status).toBe("done");
    const price = (await variantOf(p.id, vid)).prices.market_es;
    expect(price.list_price).toEqual({ amount: "25.00", currency: "EUR" });
    expect(price.offer_price).toEqual({ amount: "18.00", currency: "EUR" });
  });

  it("records of one chunk changing different fields of their prices each keep the fields they leave out", async () => {
    const p = await createProduct({
      variants: [
        { prices: { market_es: { list: "20.00", offer: "18.00" } } },
        { prices: { market_es: { list: "30.00", offer: "28.00" } } },
        { prices: { market_es: { list: "40.00", offer: "38.00" } } },
      ],
    });
    const [a, b, c] = p.variantIds as [number, number, number];
    const before = await variantsOf(p.id);
    const stock = (id: number) => before.find((v) => v.id === id);
    const { job } = await runVariants("id", [
      { id: a, prices: { market_es: { list_price: eur("21") } } },
      { id: b, warehouse_stock: 5, prices: { market_es: { offer_price: eur("27") } } },
      { id: c, supplier_stock: 6, prices: { market_es: { offer_price: null } } },
    ]);
    expect(job.status).toBe("done");
    const [va, vb, vc] = await Promise.all([a, b, c].map((id) => variantOf(p.id, id)));
    expect(va?.prices.market_es).toMatchObject({ list_price: eur("21.00"), offer_price: eur("18.00") });
    expect(vb?.prices.market_es).toMatchObject({ list_price: eur("30.00"), offer_price: eur("27.00") });
    expect(vc?.prices.market_es).toMatchObject({ list_price: eur("40.00"), offer_price: null });
    expect(va).toMatchObject({
      warehouse_stock: stock(a)?.warehouse_stock,
      supplier_stock: stock(a)?.supplier_stock,
    });
    expect(vb).toMatchObject({ warehouse_stock: 5, supplier_stock: stock(b)?.supplier_stock });
    expect(vc).toMatchObject({ warehouse_stock: stock(c)?.warehouse_stock, supplier_stock: 6 });
  });

  it("offer_price: null and flash_offer: null clear them", async () => {
    const p = await createProduct({
      variants: [
        {
          prices: {
            market_es: {
              list: "20.00",
              offer: "18.00",
              flash: { price: "15.00", from: "2020-01-01", until: "2099-12-31" },
            },
          },
        },
      ],
    });
    const vid = p.variantIds[0] as number;
    const before = (await variantOf(p.id, vid)).prices.market_es;
    expect(before.selling_price).toEqual({ amount: "15.00", currency: "EUR" });
    await runVariants("id", [{ id: vid, prices: { market_es: { offer_price: null, flash_offer: null } } }]);
    expect((await variantOf(p.id, vid)).prices.market_es).toEqual({
      selling_price: { amount: "20.00", currency: "EUR" },
      list_price: { amount: "20.00", currency: "EUR" },
      offer_price: null,
      flash_offer: null,
    });
  });

  it("sets a flash offer", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      {
        id: vid,
        prices: {
          market_es: {
            flash_offer: { price: eur("3"), valid_from: "2020-01-01", valid_until: "2099-01-01" },
          },
        },
      },
    ]);
    expect(job.status).toBe("done");
    const price = (await variantOf(p.id, vid)).prices.market_es;
    expect(price.flash_offer).toEqual({
      price: { amount: "3.00", currency: "EUR" },
      valid_from: "2020-01-01",
      valid_until: "2099-01-01",
    });
    expect(price.selling_price.amount).toBe("3.00");
  });

  it("prices.<market>: null removes that market's price", async () => {
    const p = await createProduct({
      variants: [{ prices: { market_es: { list: "20.00" }, market_fr: { list: "21.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [{ id: vid, prices: { market_fr: null } }]);
    expect(job.status).toBe("done");
    const prices = (await variantOf(p.id, vid)).prices;
    expect(prices.market_fr).toBeNull();
    expect(prices.market_es.list_price.amount).toBe("20.00");
  });

  it("adds a new market with list_price", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      { id: vid, prices: { market_en: { list_price: { amount: "9.99", currency: "GBP" } } } },
    ]);
    expect(job.status).toBe("done");
    expect((await variantOf(p.id, vid)).prices.market_en.list_price).toEqual({
      amount: "9.99",
      currency: "GBP",
    });
  });

  it("a new market without list_price is MISSING_REQUIRED_FIELD", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runVariants("id", [
      { id: vid, warehouse_stock: 77, prices: { market_fr: { offer_price: eur("5") } } },
    ]);
    expect(job.status).toBe("failed");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "MISSING_REQUIRED_FIELD",
        affected_fields: ["prices.market_fr.list_price"],
        identifiers: { variant: { id: vid } },
      }),
    ]);
    const v = await variantOf(p.id, vid);
    expect(v.prices.market_fr).toBeNull();
    expect(v.warehouse_stock).not.toBe(77);
  });

  it("a price in the wrong currency is INVALID_FIELD_VALUE with the dotted path", async () => {
    const p = await createProduct();
    const vid = p.variantIds[0] as number;
    const { jobId } = await runVariants("id", [
      {
        id: vid,
        prices: {
          market_en: { list_price: eur("5"), offer_price: { amount: "4", currency: "GBP" } },
          market_es: { offer_price: { amount: "1", currency: "GBP" } },
        },
      },
    ]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error?.code).toBe("INVALID_FIELD_VALUE");
    expect(error?.affected_fields).toEqual([
      "prices.market_en.list_price.currency",
      "prices.market_es.offer_price.currency",
    ]);
  });

  it("an unknown market key is INVALID_FIELD_VALUE", async () => {
    const p = await createProduct();
    const { jobId } = await runVariants("id", [
      { id: p.variantIds[0], prices: { market_xx: { list_price: eur("1") } } },
    ]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_FIELD_VALUE", affected_fields: ["prices.market_xx"] });
  });
});

describe("variants bulk update: job outcome", () => {
  it("all valid → done", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const { jobId, job } = await runVariants(
      "id",
      p.variantIds.map((id) => ({ id, warehouse_stock: 1 })),
    );
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({
      total_records: 2,
      processed_records: 2,
      succeeded_records: 2,
      failed_records: 0,
      log_error_count: 0,
      log_warning_count: 0,
      log_info_count: 1,
    });
    await expectConsistent(jobId, job);
  });

  it("mixed → done_with_errors with exactly one ERROR per bad record", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const [a, b] = p.variantIds as [number, number];
    const { jobId, job } = await runVariants("id", [
      { id: a, warehouse_stock: 1 },
      { id: 999999991, warehouse_stock: 1 },
      { id: b, prices: { market_de: { offer_price: eur("1") } }, min_quantity: 0 },
      {},
      { id: b, supplier_stock: 9 },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({ succeeded_records: 2, failed_records: 3, log_error_count: 3 });
    const logs = await expectConsistent(jobId, job);
    const errors = logs.filter((l) => l.severity === "ERROR");
    expect(errors.map((e) => e.code)).toEqual(["NOT_FOUND", "MISSING_REQUIRED_FIELD", "INVALID_IDENTIFIER"]);
    // The record with two problems lists both paths under the first code that applies.
    expect(errors[1]?.affected_fields?.sort()).toEqual(["min_quantity", "prices.market_de.list_price"]);
  });

  it("all invalid → failed", async () => {
    const { jobId, job } = await runVariants("internal_id", [
      { internal_id: unique("none") },
      { internal_id: unique("none") },
    ]);
    expect(job.status).toBe("failed");
    expect(job.summary).toMatchObject({ succeeded_records: 0, failed_records: 2 });
    await expectConsistent(jobId, job);
  });

  it("variant changes bump the product's updated_at", async () => {
    const p = await createProduct({ updatedAt: "2026-01-10T10:00:00Z" });
    await runVariants("id", [{ id: p.variantIds[0], warehouse_stock: 2 }]);
    const product = (await api(`/api/v1/products/${p.id}?fields=updated_at`)).json;
    expect(product.updated_at > "2026-01-10T10:00:00Z").toBe(true);
  });

  it("a failed record does not bump its product's updated_at", async () => {
    const p = await createProduct({ updatedAt: "2026-01-10T10:00:00Z" });
    await runVariants("id", [{ id: p.variantIds[0], min_quantity: 0 }]);
    const product = (await api(`/api/v1/products/${p.id}?fields=updated_at`)).json;
    expect(product.updated_at).toBe("2026-01-10T10:00:00Z");
  });

  it("duplicate records for one variant apply in payload order (later wins, field by field)", async () => {
    const p = await createProduct({ variants: [{ prices: { market_es: { list: "10.00" } } }] });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      { id: vid, warehouse_stock: 1, supplier_stock: 1, translations: { "es-ES": { name: "Uno" } } },
      { id: vid, warehouse_stock: 2, prices: { market_es: { offer_price: eur("8") } } },
      { id: vid, warehouse_stock: 3, translations: { "es-ES": { name: "Tres" } } },
    ]);
    expect(job.status).toBe("done");
    const v = await variantOf(p.id, vid);
    expect(v).toMatchObject({ warehouse_stock: 3, supplier_stock: 1 });
    expect(v.translations["es-ES"].name).toBe("Tres");
    expect(v.prices.market_es.list_price.amount).toBe("10.00");
    expect(v.prices.market_es.offer_price.amount).toBe("8.00");
  });

  it("a market removed by an earlier record needs list_price again in a later one", async () => {
    const p = await createProduct({
      variants: [{ prices: { market_es: { list: "10.00", offer: "9.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    const { jobId, job } = await runVariants("id", [
      { id: vid, prices: { market_es: null } },
      { id: vid, prices: { market_es: { offer_price: eur("5") } } },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({ code: "MISSING_REQUIRED_FIELD", identifiers: { variant: { id: vid } } }),
    ]);
    expect((await variantOf(p.id, vid)).prices.market_es).toBeNull();
  });

  it("a market removed then re-created in one payload starts from the new values only", async () => {
    const p = await createProduct({
      variants: [{ prices: { market_es: { list: "10.00", offer: "9.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    const { job } = await runVariants("id", [
      { id: vid, prices: { market_es: null } },
      { id: vid, prices: { market_es: { list_price: eur("30") } } },
    ]);
    expect(job.status).toBe("done");
    const price = (await variantOf(p.id, vid)).prices.market_es;
    expect(price.list_price.amount).toBe("30.00");
    expect(price.offer_price).toBeNull();
  });

  it("a sku taken within the supplier (case-insensitively) is INVALID_FIELD_VALUE for that record only", async () => {
    const supplierId = await createSupplierRow();
    const sku = unique("Taken");
    const p = await createProduct({ supplierId, variants: [{ sku }, {}] });
    const [, b] = p.variantIds as [number, number];
    const { jobId, job } = await runVariants("id", [
      { id: b, sku: sku.toLowerCase() },
      { id: p.variantIds[0], warehouse_stock: 8 },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "INVALID_FIELD_VALUE",
        identifiers: { variant: { id: b } },
        affected_fields: ["sku"],
      }),
    ]);
    expect((await variantOf(p.id, p.variantIds[0] as number)).warehouse_stock).toBe(8);
  });

  it("a taken internal_id is INVALID_FIELD_VALUE for that record only", async () => {
    const taken = unique("TAKEN");
    await createProduct({ variants: [{ internalId: taken }] });
    const p = await createProduct({ variants: [{}, {}] });
    const [a, b] = p.variantIds as [number, number];
    const { jobId, job } = await runVariants("id", [
      { id: a, warehouse_stock: 31 },
      { id: b, internal_id: taken },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "INVALID_FIELD_VALUE",
        identifiers: { variant: { id: b } },
        affected_fields: ["internal_id"],
      }),
    ]);
    expect((await variantOf(p.id, a)).warehouse_stock).toBe(31);
  });
});
