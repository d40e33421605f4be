import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MARKETS, SUPPORTED_LOCALES } from "../../src/lib/locales.ts";
import { SLUG_PATTERN, slugify } from "../../src/lib/slug.ts";
import { brandCount, brandStatements } from "../../src/seed/brands.ts";
import { categoryStatements } from "../../src/seed/categories.ts";
import {
  isSimpleProduct,
  productCount,
  variantIdsOfProduct,
  variantsPerProduct,
} from "../../src/seed/layout.ts";
import {
  FLASH_WINDOWS,
  type FlashKind,
  flashKindOfProduct,
  lacksRussianPrice,
  productStatements,
} from "../../src/seed/products.ts";
import { MAX_PARAMS_PER_STATEMENT, type SeedStatement } from "../../src/seed/sql.ts";
import { storeStatements } from "../../src/seed/store.ts";
import { supplierCount, supplierStatements } from "../../src/seed/suppliers.ts";
import { api } from "../support/api.ts";

/** Tables the catalog seed writes, children first (test/support/setup.ts already inserted a store and keys). */
const CATALOG_TABLES = [
  "variant_prices",
  "variant_translations",
  "variants",
  "product_categories",
  "product_images",
  "product_translations",
  "products",
  "brand_translations",
  "brands",
  "category_translations",
  "categories",
  "suppliers",
];
/** The order in which productStatements writes its tables (parents first). */
const PRODUCT_TABLES = [
  "products",
  "product_translations",
  "product_images",
  "product_categories",
  "variants",
  "variant_translations",
  "variant_prices",
];

const catalog = (scale: number, allLocales?: boolean): SeedStatement[] => [
  ...storeStatements(),
  ...supplierStatements(scale),
  ...brandStatements(scale),
  ...categoryStatements(scale),
  ...productStatements(scale, { allLocales }),
];

async function load(statements: SeedStatement[]) {
  await env.DB.batch([
    ...CATALOG_TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
    ...statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)),
  ]);
}

const scalar = async (sql: string, ...params: unknown[]) =>
  Object.values(
    (await env.DB.prepare(sql)
      .bind(...params)
      .first<Record<string, unknown>>()) ?? {},
  )[0];
const rows = async <T>(sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;

const productIds = (scale: number) => Array.from({ length: productCount(scale) }, (_, i) => i + 1);
const totalVariants = (scale: number) =>
  productIds(scale).reduce((sum, id) => sum + variantsPerProduct(id), 0);
const CURRENCY = Object.fromEntries(MARKETS.map((m) => [m.key, m.currency]));
const MONEY = /^\d{1,12}\.\d{2}$/;

/** Invariants every scale must keep, checked in SQL. */
async function expectConsistentCatalog(scale: number) {
  expect(await scalar("SELECT count(*) FROM products")).toBe(productCount(scale));
  expect(await scalar("SELECT count(*) FROM variants")).toBe(totalVariants(scale));
  // Variant ids and order follow layout.ts.
  const layout = await rows<{ product_id: number; ids: string }>(
    "SELECT product_id, json_group_array(id) AS ids FROM (SELECT product_id, id FROM variants ORDER BY product_id, position) GROUP BY product_id",
  );
  expect(layout.map((r) => [r.product_id, JSON.parse(r.ids)])).toEqual(
    productIds(scale).map((id) => [id, variantIdsOfProduct(id)]),
  );
  // Structure matches the variant count, the variant supplier copies the product's.
  expect(
    await scalar(
      `SELECT count(*) FROM products p WHERE product_structure <> CASE WHEN (SELECT count(*) FROM variants v WHERE v.product_id = p.id) = 1 THEN 'simple' ELSE 'with-variants' END`,
    ),
  ).toBe(0);
  expect(
    await scalar(
      "SELECT count(*) FROM variants v JOIN products p ON p.id = v.product_id WHERE v.supplier_id IS NOT p.supplier_id",
    ),
  ).toBe(0);
  // References resolve.
  for (const [column, table] of [
    ["supplier_id", "suppliers"],
    ["brand_id", "brands"],
  ]) {
    expect(
      await scalar(
        `SELECT count(*) FROM products WHERE ${column} IS NOT NULL AND ${column} NOT IN (SELECT id FROM ${table})`,
      ),
    ).toBe(0);
  }
  expect(
    await scalar(
      "SELECT count(*) FROM product_categories WHERE category_id NOT IN (SELECT id FROM categories)",
    ),
  ).toBe(0);
  // 1–3 categories, positions 0..n-1.
  const links = await rows<{ n: number; positions: number }>(
    "SELECT count(*) AS n, sum(position) AS positions FROM product_categories GROUP BY product_id",
  );
  expect(links).toHaveLength(productCount(scale));
  for (const { n, positions } of links) {
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(3);
    expect(positions).toBe((n * (n - 1)) / 2);
  }
  // Every product is named in the primary locale and en-GB; slugs are unique per locale.
  for (const locale of ["es-ES", "en-GB"]) {
    expect(
      await scalar(
        "SELECT count(*) FROM product_translations WHERE locale = ? AND name IS NOT NULL AND slug IS NOT NULL",
        locale,
      ),
    ).toBe(productCount(scale));
  }
  expect(
    await scalar(
      "SELECT count(*) FROM (SELECT locale, slug FROM product_translations GROUP BY locale, slug HAVING count(*) > 1)",
    ),
  ).toBe(0);
  // (supplier, sku) unique case-insensitively.
  expect(
    await scalar(
      "SELECT count(*) FROM (SELECT 1 FROM variants WHERE supplier_id IS NOT NULL GROUP BY supplier_id, sku COLLATE NOCASE HAVING count(*) > 1)",
    ),
  ).toBe(0);
}

describe("product seed (scale 1)", () => {
  beforeAll(async () => {
    await load(catalog(1));
  });

  it("creates the layout's products and variants, with both structures", async () => {
    await expectConsistentCatalog(1);
    const all = await api("/api/v1/products?per_page=1");
    expect(all.status).toBe(200);
    expect(all.json.pagination.total).toBe(productCount(1));
    const simple = await api("/api/v1/products?product_structure=simple&per_page=100");
    expect(simple.json.data.map((p: { id: number }) => p.id)).toEqual(productIds(1).filter(isSimpleProduct));
    const withVariants = await api("/api/v1/products?product_structure=with-variants&per_page=1");
    expect(withVariants.json.pagination.total).toBe(
      productIds(1).filter((id) => !isSimpleProduct(id)).length,
    );
    const statuses = await rows<{ status: string }>("SELECT DISTINCT status FROM products ORDER BY status");
    expect(statuses.map((r) => r.status)).toEqual(["published", "unpublished"]);
  });

  it("renders a product with its variants, brand, categories and supplier", async () => {
    for (const id of [1, 2, 3]) {
      const res = await api(`/api/v1/products/${id}?includes=variants,brand,categories,supplier&locales=ALL`);
      expect(res.status).toBe(200);
      const product = res.json;
      expect(product.product_structure).toBe(isSimpleProduct(id) ? "simple" : "with-variants");
      expect(product.product_kind).toBe("physical");
      expect(["standard", "reduced"]).toContain(product.tax_category);
      expect(product.variants_count).toBe(variantsPerProduct(id));
      expect(product.variants.map((v: { id: number }) => v.id)).toEqual(variantIdsOfProduct(id));
      expect(Object.keys(product.translations).sort()).toEqual([...SUPPORTED_LOCALES].sort());
      const es = product.translations["es-ES"];
      expect(es.name).toEqual(expect.any(String));
      expect(es.slug_base).toBe(slugify(es.name));
      expect(es.slug).toMatch(SLUG_PATTERN);
      expect(es.url).toBe(`https://www.example-shop.es/${es.slug}`);
      expect(product.translations["en-GB"].name).toEqual(expect.any(String));
      expect(product.translations["ru-RU"].name).toBeNull();
      product.images.forEach((image: { fullsize: string; position: number }, n: number) => {
        expect(image.position).toBe(n);
        expect(image.fullsize).toBe(`https://images.example-shop.test/p/${id}-${n + 1}.jpg`);
      });
      expect(product.categories.length).toBeGreaterThanOrEqual(1);
      const row = await env.DB.prepare("SELECT brand_id, supplier_id FROM products WHERE id = ?")
        .bind(id)
        .first<{ brand_id: number | null; supplier_id: number | null }>();
      expect(product.brand?.id ?? null).toBe(row?.brand_id);
      expect(product.supplier?.id ?? null).toBe(row?.supplier_id);
      for (const variant of product.variants) {
        expect(variant.ean).toMatch(/^\d{13}$/);
        expect(variant.translations["es-ES"].name).toEqual(expect.any(String));
        expect(Object.keys(variant.prices).sort()).toEqual(MARKETS.map((m) => m.key).sort());
      }
    }
    // The demo has a slug collision: product 40 repeats product 1's name.
    const [first, fortieth] = await Promise.all([
      api("/api/v1/products/1?fields=slug,slug_base"),
      api("/api/v1/products/40?fields=slug,slug_base"),
    ]);
    expect(fortieth.json.translations["es-ES"]).toEqual({
      slug_base: first.json.translations["es-ES"].slug_base,
      slug: `${first.json.translations["es-ES"].slug}-2`,
    });
  });

  it("gives category_ids that reference existing categories, main category a leaf", async () => {
    const categoryIds = new Set((await rows<{ id: number }>("SELECT id FROM categories")).map((r) => r.id));
    const res = await api("/api/v1/products?fields=category_ids&per_page=100");
    expect(res.json.data).toHaveLength(productCount(1));
    for (const product of res.json.data as { category_ids: number[] }[]) {
      expect(product.category_ids.length).toBeGreaterThanOrEqual(1);
      for (const id of product.category_ids) expect(categoryIds.has(id)).toBe(true);
    }
    expect(
      await scalar(
        "SELECT count(*) FROM product_categories pc WHERE position = 0 AND EXISTS (SELECT 1 FROM categories c WHERE c.parent_id = pc.category_id)",
      ),
    ).toBe(0);
  });

  it("prices every sampled variant in all 7 markets, in the market currency", async () => {
    const sample = productIds(1).filter((id) => id <= 12 && !lacksRussianPrice(id));
    for (const id of sample) {
      const res = await api(`/api/v1/products/${id}/variants?fields=prices&locales=ALL`);
      expect(res.status).toBe(200);
      expect(res.json.data.map((v: { id: number }) => v.id)).toEqual(variantIdsOfProduct(id));
      for (const variant of res.json.data) {
        expect(Object.keys(variant.prices).sort()).toEqual(MARKETS.map((m) => m.key).sort());
        for (const [market, price] of Object.entries(variant.prices) as [string, any][]) {
          expect(price.list_price).toEqual({
            amount: expect.stringMatching(MONEY),
            currency: CURRENCY[market],
          });
          expect(price.selling_price.currency).toBe(CURRENCY[market]);
          if (price.offer_price) {
            expect(price.offer_price.currency).toBe(CURRENCY[market]);
            expect(Number(price.offer_price.amount)).toBeLessThan(Number(price.list_price.amount));
          }
        }
      }
    }
    // The few products without a Russian price.
    const missing = productIds(1).find(lacksRussianPrice);
    expect(missing).toBeDefined();
    const res = await api(`/api/v1/products/${missing}/variants?fields=prices&locales=ru-RU,es-ES`);
    for (const variant of res.json.data) {
      expect(variant.prices.market_ru).toBeNull();
      expect(variant.prices.market_es).not.toBeNull();
    }
  });

  it("has active, future and expired flash offers; selling_price follows only the active one", async () => {
    const seen = new Set<FlashKind>();
    for (const id of productIds(1).slice(0, 12)) {
      const kind = flashKindOfProduct(id);
      const res = await api(`/api/v1/products/${id}/variants?fields=prices&locales=es-ES,en-GB,ru-RU`);
      for (const variant of res.json.data) {
        for (const price of Object.values(variant.prices) as any[]) {
          if (price === null) continue;
          if (!kind) {
            expect(price.flash_offer).toBeNull();
            expect(price.selling_price).toEqual(price.offer_price ?? price.list_price);
            continue;
          }
          seen.add(kind);
          expect(price.flash_offer).toEqual({
            price: { amount: expect.stringMatching(MONEY), currency: price.list_price.currency },
            valid_from: FLASH_WINDOWS[kind].from,
            valid_until: FLASH_WINDOWS[kind].until,
          });
          expect(Number(price.flash_offer.price.amount)).toBeLessThan(
            Number((price.offer_price ?? price.list_price).amount),
          );
          expect(price.selling_price).toEqual(
            kind === "active" ? price.flash_offer.price : (price.offer_price ?? price.list_price),
          );
        }
      }
    }
    expect([...seen].sort()).toEqual(["active", "expired", "future"]);
  });

  it("keeps SKUs unique per supplier, with a SKU shared across suppliers and duplicate EANs", async () => {
    const shared = await rows<{ sku: string; suppliers: number }>(
      "SELECT lower(sku) AS sku, count(DISTINCT supplier_id) AS suppliers FROM variants GROUP BY sku COLLATE NOCASE HAVING count(*) > 1",
    );
    expect(shared.length).toBeGreaterThan(0);
    for (const row of shared) expect(row.suppliers).toBeGreaterThan(1);

    const sharedSku = await api(`/api/v1/products?sku=${encodeURIComponent(shared[0]?.sku ?? "")}`);
    expect(sharedSku.json.pagination.total).toBe(2);

    const ean = await scalar("SELECT ean FROM variants GROUP BY ean HAVING count(*) > 1 LIMIT 1");
    expect(ean).toMatch(/^\d{13}$/);
    const byEan = await api(`/api/v1/products?ean=${ean}`);
    expect(byEan.json.pagination.total).toBe(2);
    expect(await scalar("SELECT count(*) FROM variants WHERE ean IS NULL OR length(ean) <> 13")).toBe(0);

    // Stocks, packs and cost prices vary.
    const variants = await rows<{
      warehouse_stock: number;
      min_quantity: number;
      quantity_factor: number;
      cost_price_amount: string;
      cost_price_currency: string;
    }>(
      "SELECT warehouse_stock, min_quantity, quantity_factor, cost_price_amount, cost_price_currency FROM variants",
    );
    expect(variants.some((v) => v.warehouse_stock === 0)).toBe(true);
    expect(variants.some((v) => v.warehouse_stock > 0)).toBe(true);
    expect(variants.filter((v) => v.min_quantity === 1).length).toBeGreaterThan(variants.length / 2);
    for (const v of variants) {
      expect(v.min_quantity).toBe(v.quantity_factor);
      expect(v.cost_price_amount).toMatch(MONEY);
      expect(v.cost_price_currency).toBe("EUR");
    }
  });
});

describe("product seed statements", () => {
  it("are deterministic", () => {
    expect(productStatements(1)).toEqual(productStatements(1));
    expect(productStatements(3, { allLocales: true })).toEqual(productStatements(3, { allLocales: true }));
    expect(productStatements(1)).not.toEqual(productStatements(1, { allLocales: true }));
  });

  it("bind fewer than 100 parameters each and write parents before children", () => {
    const tables: string[] = [];
    for (const s of productStatements(2, { allLocales: true })) {
      expect(s.params.length).toBeLessThanOrEqual(MAX_PARAMS_PER_STATEMENT);
      expect(s.sql.split("?").length - 1).toBe(s.params.length);
      const table = /^INSERT INTO "(\w+)"/.exec(s.sql)?.[1] ?? "";
      if (tables.at(-1) !== table) tables.push(table);
    }
    expect(tables).toEqual(PRODUCT_TABLES);
  });

  it("load at scale 3 with names in all 14 locales, keeping every constraint", async () => {
    await load(catalog(3, true));
    await expectConsistentCatalog(3);
    expect(await scalar("SELECT count(*) FROM product_translations")).toBe(productCount(3) * 14);
    expect(await scalar("SELECT count(*) FROM variant_translations")).toBe(totalVariants(3) * 14);
    expect(await scalar("SELECT count(*) FROM product_translations WHERE name IS NULL")).toBe(0);
    const res = await api("/api/v1/products/77?locales=ALL&fields=name");
    for (const locale of SUPPORTED_LOCALES)
      expect(res.json.translations[locale].name).toEqual(expect.any(String));
    // Greek and Cyrillic names get transliterated slugs.
    const slugs = await rows<{ slug: string }>(
      "SELECT slug FROM product_translations WHERE locale IN ('ru-RU', 'el-GR')",
    );
    for (const { slug } of slugs) expect(slug).toMatch(/^[a-z0-9-]+$/);
  });

  it("load at a fractional scale, referencing only rows that exist", async () => {
    await load(catalog(0.5));
    await expectConsistentCatalog(0.5);
    expect(await scalar("SELECT max(brand_id) FROM products")).toBeLessThanOrEqual(brandCount(0.5));
    expect(await scalar("SELECT max(supplier_id) FROM products")).toBeLessThanOrEqual(supplierCount(0.5));
  });
});
