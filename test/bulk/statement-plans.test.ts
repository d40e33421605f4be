import { env } from "cloudflare:test";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobRow } from "../../src/async/bulk/types.ts";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { BULK_OPERATIONS } from "../../src/resources/bulk-operations.ts";
import { type CatalogFacts, type FactVariant, planCases } from "./statement-plan-cases.ts";

/**
 * Every statement the four bulk processors issue (their lookups and the writes of their plans),
 * explained against a catalog large enough, with planner statistics, for SQLite to pick the indexes
 * it would pick in production. A statement that reads a whole table (`SCAN <table>`) takes time
 * proportional to the catalog per chunk: on 36,000 variants a price-clearing chunk of 200 records
 * took 12 s and a translation-clearing one 25 s, against D1's 30 s per batch. Only the chunk's own
 * rows (`json_each`, a virtual table) may be scanned.
 */
const PRODUCTS = 3000; // 2 variants each
const REFERENCES = 500; // suppliers, brands, categories

/** The test catalog, built set-based in one batch (a second or two). */
async function buildCatalog() {
  const n = (count: number) =>
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
  const locales = `(SELECT 'es-ES' AS l UNION ALL SELECT 'en-GB' UNION ALL SELECT 'fr-FR')`;
  await env.DB.batch(
    [
      `${n(REFERENCES)} INSERT INTO suppliers (id, name, internal_id) SELECT i, 'Supplier ' || i, 'PS-' || i FROM n`,
      `${n(REFERENCES)} INSERT INTO brands (id, name, slug) SELECT i, 'Brand ' || i, 'brand-' || i FROM n`,
      `${n(REFERENCES)} INSERT INTO categories (id, status) SELECT i, 'published' FROM n`,
      `${n(10)} INSERT INTO price_lists (id, internal_id, is_active, global_discount) SELECT i, 'PL-' || i, 1, '0' FROM n`,
      // Suppliers 1..499: supplier 500 is nobody's, so assigning it is a change.
      `${n(PRODUCTS)} INSERT INTO products (id, internal_id, product_structure, status, product_kind, stock_management, tax_category, supplier_id, brand_id)
        SELECT i, 'PP-' || i, 'with-variants', 'published', 'physical', 'default', 'standard', 1 + i % 499, 1 + i % ${REFERENCES} FROM n`,
      `INSERT INTO product_translations (product_id, locale, name, slug_base, slug)
        SELECT p.id, l, 'Product ' || p.id, 'product-' || p.id, 'product-' || p.id FROM products p, ${locales}`,
      "INSERT INTO product_images (product_id, url, position) SELECT id, 'https://img.example/' || id || '.jpg', 0 FROM products",
      "INSERT INTO product_images (product_id, url, position) SELECT id, 'https://img.example/' || id || '-2.jpg', 1 FROM products",
      `INSERT INTO product_categories (product_id, category_id, position) SELECT id, 1 + id % ${REFERENCES}, 0 FROM products`,
      `INSERT INTO product_categories (product_id, category_id, position) SELECT id, 1 + (id + 7) % ${REFERENCES}, 1 FROM products`,
      `${n(2 * PRODUCTS)} INSERT INTO variants (id, product_id, supplier_id, internal_id, sku, ean, status, position)
        SELECT i, (i + 1) / 2, 1 + ((i + 1) / 2) % 499, 'PV-' || i, 'PSKU-' || i, 'PE' || i, 'published', (i + 1) % 2 FROM n`,
      `INSERT INTO variant_translations (variant_id, locale, name) SELECT v.id, l, 'Variant ' || v.id FROM variants v, ${locales}`,
      `INSERT INTO variant_prices (variant_id, market, currency, list_price)
        SELECT id, 'market_es', 'EUR', '10.00' FROM variants UNION ALL SELECT id, 'market_fr', 'EUR', '11.00' FROM variants
        UNION ALL SELECT id, 'market_en', 'GBP', '9.00' FROM variants`,
      // Price list 1 prices the odd variants; lists 2..10 price every variant.
      `INSERT INTO price_list_variant_prices (price_list_id, variant_id, amount, currency)
        SELECT 1, id, '8.00', 'EUR' FROM variants WHERE id % 2 = 1
        UNION ALL SELECT 2 + id % 9, id, '7.00', 'EUR' FROM variants`,
      `${n(2000)} INSERT INTO reviews (type, locale, status, rating, content, reviewer_email, product_id, variant_id)
        SELECT 'product', 'es-ES', 'published', 1 + i % 5, 'Fine', 'r' || i || '@example.test', i, 2 * i FROM n`,
    ].map((q) => env.DB.prepare(q)),
  );
  await env.DB.prepare(OPTIMIZE_SQL).run();
}

const variant = (id: number): FactVariant => ({
  id,
  internalId: `PV-${id}`,
  ean: `PE${id}`,
  sku: `PSKU-${id}`,
  supplierInternalId: `PS-${1 + (Math.floor((id + 1) / 2) % 499)}`,
});

const FACTS: CatalogFacts = {
  products: [10, 11, 12, 13].map((id) => ({ id, internalId: `PP-${id}`, variants: [variant(2 * id - 1)] })),
  brandId: 7,
  supplierId: REFERENCES,
  categoryIds: [3, 4],
  priceListId: 1,
  pricedVariants: [101, 111, 121, 131, 141, 151, 161, 171].map(variant),
  unpricedVariants: [102, 104, 106, 108].map(variant),
};

interface Captured {
  source: string;
  sql: string;
  params: unknown[];
}

/** The D1 binding, recording the SQL and parameters of every statement prepared through it. */
function recording(d1: D1Database, out: Captured[], source: string): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => {
          const entry: Captured = { source, sql: query, params: [] };
          out.push(entry);
          const statement = target.prepare(query);
          return new Proxy(statement, {
            get(s, p) {
              if (p === "bind")
                return (...params: unknown[]) => {
                  entry.params = params;
                  return s.bind(...params);
                };
              const value = Reflect.get(s, p, s);
              return typeof value === "function" ? value.bind(s) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Lookups and writes of every representative chunk (the writes are planned, not run). */
async function captureStatements(): Promise<Captured[]> {
  const dialect = new SQLiteSyncDialect();
  const captured: Captured[] = [];
  for (const c of planCases(FACTS, "PLAN")) {
    const job = { id: crypto.randomUUID(), type: c.type, params: c.params } as unknown as JobRow;
    const ctx = {
      db: null as never,
      env: { ...env, DB: recording(env.DB, captured, c.name) },
      job,
      today: "2026-01-01",
    };
    const plan = await BULK_OPERATIONS[c.type].processor.plan(
      ctx,
      c.records.map((data, index) => ({ index, data })),
    );
    // Every record succeeds, so every write branch of the case is in the plan.
    expect(
      plan.outcomes.filter((o) => !o.ok),
      c.name,
    ).toEqual([]);
    for (const statement of plan.statements) {
      const { sql, params } = dialect.sqlToQuery(statement);
      captured.push({ source: c.name, sql, params });
    }
  }
  return captured;
}

async function planOf({ sql, params }: Captured): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/** A full pass over a table or index; the chunk's own rows (`json_each`) are a virtual table. */
const FULL_SCAN = /^SCAN (?!CONSTANT ROW)(?!.*VIRTUAL TABLE)/;

describe("bulk statements on a large catalog", () => {
  let captured: Captured[] = [];
  beforeAll(async () => {
    await buildCatalog();
    captured = await captureStatements();
  }, 60_000);

  it("the catalog has planner statistics, so the plans are the ones a real catalog gets", async () => {
    const { results } = await env.DB.prepare(
      "SELECT tbl FROM sqlite_stat1 WHERE tbl IN ('variants', 'variant_prices', 'variant_translations', 'product_categories')",
    ).all<{ tbl: string }>();
    expect(new Set(results.map((r) => r.tbl)).size).toBe(4);
  });

  it("cover every related table's delete, insert and update", () => {
    const written = new Set(
      captured.flatMap((c) => {
        const m = /^\s*(DELETE FROM|INSERT INTO|UPDATE) "?(\w+)"?/.exec(c.sql);
        return m ? [`${m[1]} ${m[2]}`] : [];
      }),
    );
    for (const table of [
      "product_translations",
      "product_images",
      "product_categories",
      "variant_translations",
      "variant_prices",
      "price_list_variant_prices",
    ]) {
      expect(written, table).toContain(`DELETE FROM ${table}`);
      expect(written, table).toContain(`INSERT INTO ${table}`);
    }
    for (const table of ["products", "variants", "variant_prices", "price_list_variant_prices"]) {
      expect(written, table).toContain(`UPDATE ${table}`);
    }
  });

  it("no lookup or write of a bulk job scans a table: each searches an index per chunk row", async () => {
    expect(captured.length).toBeGreaterThan(50);
    const scans: string[] = [];
    for (const statement of captured) {
      const plan = await planOf(statement);
      if (plan.some((step) => FULL_SCAN.test(step))) {
        scans.push(`${statement.source}: ${statement.sql.replace(/\s+/g, " ")}\n    ${plan.join(" | ")}`);
      }
    }
    expect(scans, `statements scanning a table:\n${scans.join("\n")}`).toEqual([]);
  });
});
