import { env } from "cloudflare:test";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { commitWithBooks } from "../../src/async/bulk/apply-chunk.ts";
import type { JobRow, Plan, ProcessorContext } from "../../src/async/bulk/types.ts";
import { productsUpsert } from "../../src/resources/products/products.bulk-processor.ts";
import { variantsUpdate } from "../../src/resources/variants/variants.bulk-processor.ts";
import { createCategoryRow, createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

/*
 * A real run leaves out, before its batch, the writes that would change nothing
 * (src/async/bulk/change-checks.ts): a re-sent record equal to what is stored costs no write
 * statement at all, a partly changed one only the statements of what differs.
 */

const dialect = new SQLiteSyncDialect();

const contextOf = (type: string, options: Record<string, unknown>): ProcessorContext => ({
  db: null as never,
  env,
  job: { id: crypto.randomUUID(), type, params: { options }, dryRun: false } as unknown as JobRow,
  today: "2026-01-01",
});

/** The tables the statements write, as `UPDATE t`, `INSERT INTO t`, `DELETE FROM t`. */
const writes = (statements: Plan["statements"]) =>
  [
    ...new Set(
      statements.flatMap((s) => {
        const m = /^\s*(DELETE FROM|INSERT INTO|UPDATE) "?(\w+)"?/.exec(dialect.sqlToQuery(s).sql);
        return m ? [`${m[1]} ${m[2]}`] : [];
      }),
    ),
  ].sort();

async function storedProduct() {
  const supplier = await createSupplierRow();
  const [c1, c2] = [await createCategoryRow(), await createCategoryRow()];
  const internalId = unique("CC");
  const record = {
    internal_id: internalId,
    supplier_id: supplier,
    model_code: "MC-1",
    category_ids: [c1, c2],
    images: [{ url: "https://img.example/a.jpg" }, { url: "https://img.example/b.jpg" }],
    translations: { "es-ES": { name: `Producto ${internalId}`, description: "Desc" }, "fr-FR": null },
    variants: [
      {
        internal_id: `${internalId}-A`,
        sku: `${internalId}-A`,
        warehouse_stock: 5,
        prices: { market_es: { list_price: { amount: "10.00", currency: "EUR" } }, market_fr: null },
        translations: { "es-ES": { name: "Talla A" }, "de-DE": null },
      },
    ],
  };
  const job = await waitForJob(
    await submitBulk("/api/v1/products/bulk", { products: [record], options: { match_by: "internal_id" } }),
  );
  expect(job.summary.failed_records).toBe(0);
  return record;
}

const planProducts = (records: unknown[]) =>
  productsUpsert.plan(
    contextOf("products_bulk_upsert", { match_by: "internal_id" }),
    records.map((data, index) => ({ index, data })),
  );

describe("change checks before a real run's batch", () => {
  it("leave no write statement for a product record equal to what is stored, deletes of absent rows included", async () => {
    const record = await storedProduct();
    const plan = await planProducts([record]);
    expect(plan.outcomes.every((o) => o.ok)).toBe(true);
    // Planned, the record still names every table it sends (the checks decide, not the planner).
    expect(writes(plan.statements)).toContain("UPDATE products");
    expect(await plan.pruned?.(env.DB)).toEqual([]);
  });

  it("keep only the statements of what a partly changed product record changes", async () => {
    const record = await storedProduct();
    const variant = record.variants[0] as Record<string, unknown>;
    const changed = {
      ...record,
      variants: [{ ...variant, prices: { market_es: { list_price: { amount: "9.50", currency: "EUR" } } } }],
    };
    const plan = await planProducts([changed]);
    // The price, the variant stamped for it, and its product stamped by the variant (a rollup).
    expect(writes((await plan.pruned?.(env.DB)) ?? [])).toEqual([
      "UPDATE products",
      "UPDATE variant_prices",
      "UPDATE variants",
    ]);
  });

  it("leave no write statement for variant records equal to what is stored, and keep a changed one's", async () => {
    const p = await createProduct({
      variants: [
        { warehouseStock: 5, prices: { market_es: { list: "10.00" } } },
        { warehouseStock: 6, prices: { market_es: { list: "11.00" } } },
      ],
    });
    const [a, b] = p.variantIds as [number, number];
    const same = (id: number, stock: number, amount: string) => ({
      id,
      warehouse_stock: stock,
      prices: { market_es: { list_price: { amount, currency: "EUR" } }, market_fr: null },
      translations: { "de-DE": null },
    });
    const ctx = contextOf("variants_bulk_update", { match_by: "id" });
    const records = (data: unknown[]) => data.map((d, index) => ({ index, data: d }));
    const unchanged = await variantsUpdate.plan(ctx, records([same(a, 5, "10.00"), same(b, 6, "11.00")]));
    expect(await unchanged.pruned?.(env.DB)).toEqual([]);
    const oneChanged = await variantsUpdate.plan(ctx, records([same(a, 5, "10.00"), same(b, 7, "11.00")]));
    expect(writes((await oneChanged.pruned?.(env.DB)) ?? [])).toEqual(["UPDATE products", "UPDATE variants"]);
  });

  it("are skipped after a commit that changed every record it wrote, and run otherwise", async () => {
    const checked: string[] = [];
    const plan = (name: string): Plan => ({
      outcomes: [],
      statements: [],
      pruned: async () => {
        checked.push(name);
        return [];
      },
    });
    const ctx = (rows: number, unchanged: number): ProcessorContext => ({
      ...contextOf("variants_bulk_update", { match_by: "id" }),
      unrecorded: { rows, unchanged },
    });
    await commitWithBooks(ctx(12, 0), [], plan("after a send of new values"));
    await commitWithBooks(ctx(3, 40), [], plan("after a partly unchanged commit"));
    await commitWithBooks(ctx(0, 0), [], plan("first commit"));
    expect(checked).toEqual(["after a partly unchanged commit", "first commit"]);
  });
});
