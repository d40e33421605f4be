import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { dryThenReal, newProductRecord, subscribeToJobEnds } from "../support/dry-run.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

const eur = (amount: string) => ({ amount, currency: "EUR" });

describe("dry runs", () => {
  beforeAll(subscribeToJobEnds);

  it("products: creates, updates, a missing field and a UNIQUE conflict, over several chunks", async () => {
    const supplierId = await createSupplierRow();
    const takenSku = unique("DRSKU");
    await createProduct({ supplierId, variants: [{ sku: takenSku }] });
    const existing = await createProduct();
    const created = unique("DRP");
    const real = await dryThenReal(
      "products_bulk_upsert",
      [
        newProductRecord(created),
        {
          internal_id: `P-${existing.id}`,
          status: "unpublished",
          translations: { "en-GB": { name: "Hat" } },
        },
        { internal_id: unique("DRP"), translations: { "es-ES": { name: "Sin variantes" } } },
        { ...newProductRecord(unique("DRP"), { sku: takenSku }), supplier_id: supplierId },
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
    const listId = await createPriceList();
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
