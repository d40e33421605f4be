import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../src/lib/locales.ts";
import { SLUG_PATTERN } from "../../src/lib/slug.ts";
import {
  buildSeed,
  LOCAL_KEYS,
  MAX_PARAMS_PER_STATEMENT,
  type SeedStatement,
  toSqlScript,
} from "../../src/seed/index.ts";
import { api } from "../support/api.ts";

/** Every table the seed writes, children first. */
/** Children before parents, so deleting in this order satisfies foreign keys. */
const SEEDED_TABLES = [
  "api_keys",
  "job_logs",
  "jobs",
  "price_list_variant_prices",
  "price_list_customers",
  "price_list_discount_brands",
  "price_list_discount_categories",
  "price_list_discounts",
  "price_lists",
  "reviews",
  "order_line_items",
  "orders",
  "contacts",
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
  "store_translations",
  "store",
];

/** Empties the seeded tables (test/support/setup.ts inserted a store and test keys) and applies the seed in one batch. */
async function load(statements: SeedStatement[]) {
  await env.DB.batch([
    ...SEEDED_TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
    ...statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)),
  ]);
}

async function counts() {
  const sql = SEEDED_TABLES.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(", ");
  return (await env.DB.prepare(`SELECT ${sql}`).first<Record<string, number>>()) ?? {};
}

const auth = (secret: string) => ({ key: null, headers: { authorization: `Bearer ${secret}` } });
const DEV_KEY = LOCAL_KEYS[0].secret;
const READONLY_KEY = LOCAL_KEYS[1].secret;

describe("demo seed (scale 1)", () => {
  it("loads every resource: store, catalog, contacts, orders, reviews, price lists, jobs and the local keys", async () => {
    await load(await buildSeed({ includeLocalKeys: true }));
    expect(await counts()).toMatchObject({
      api_keys: 2,
      brand_translations: 60,
      brands: 12,
      category_translations: 162,
      categories: 27,
      suppliers: 8,
      store_translations: 14,
      store: 1,
      products: 40,
      contacts: 40,
      orders: 100,
      reviews: 20,
      jobs: 3,
    });
    const c = await counts();
    for (const table of [
      "variants",
      "variant_prices",
      "price_lists",
      "price_list_variant_prices",
      "order_line_items",
      "job_logs",
    ]) {
      expect(c[table], table).toBeGreaterThan(0);
    }
    const store = await env.DB.prepare(
      "SELECT primary_locale, enabled_locales FROM store WHERE id = 1",
    ).first<{
      primary_locale: string;
      enabled_locales: string;
    }>();
    expect(store?.primary_locale).toBe("es-ES");
    expect(JSON.parse(store?.enabled_locales ?? "[]")).toEqual([...SUPPORTED_LOCALES]);
    const domains = await env.DB.prepare(
      "SELECT count(DISTINCT domain) AS n FROM store_translations WHERE orders_email_account LIKE 'orders@%'",
    ).first<{ n: number }>();
    expect(domains?.n).toBe(14);
  });

  it("leaves every unfiltered list's total equal to its table's rows (the kept counts follow the seed)", async () => {
    await load(await buildSeed({ includeLocalKeys: true }));
    const c = await counts();
    for (const [path, table] of [
      ["brands", "brands"],
      ["categories", "categories"],
      ["suppliers", "suppliers"],
      ["products", "products"],
      ["price-lists", "price_lists"],
      ["reviews", "reviews"],
      ["orders", "orders"],
      ["jobs", "jobs"],
    ] as const) {
      const res = await api(`/api/v1/${path}?per_page=1`, auth(DEV_KEY));
      expect(res.json.pagination.total, path).toBe(c[table]);
    }
    for (const [view, condition] of [
      ["customers", "is_customer = 1"],
      ["subscribers", "mkt_state <> 'not_subscribed'"],
    ]) {
      const rows = await env.DB.prepare(`SELECT count(*) AS n FROM contacts WHERE ${condition}`).first<{
        n: number;
      }>();
      const res = await api(`/api/v1/contacts?view=${view}&per_page=1`, auth(DEV_KEY));
      expect(res.json.pagination.total, view).toBe(rows?.n);
    }
  });

  it("builds a category tree at least three levels deep, with unpublished ones", async () => {
    const depth = await env.DB.prepare(
      `WITH RECURSIVE tree(id, depth) AS (
         SELECT id, 1 FROM categories WHERE parent_id IS NULL
         UNION ALL SELECT c.id, tree.depth + 1 FROM categories c JOIN tree ON c.parent_id = tree.id)
       SELECT max(depth) AS depth, count(*) AS reachable FROM tree`,
    ).first<{ depth: number; reachable: number }>();
    expect(depth?.depth).toBeGreaterThanOrEqual(3);
    expect(depth?.reachable).toBe(27);
    const statuses = await env.DB.prepare(
      "SELECT status, count(*) AS n FROM categories GROUP BY status ORDER BY status",
    ).all<{ status: string; n: number }>();
    expect(statuses.results.map((r) => r.status)).toEqual(["published", "unpublished"]);
    const merchant = await env.DB.prepare(
      "SELECT merchant_categories FROM categories WHERE merchant_categories IS NOT NULL LIMIT 1",
    ).first<{ merchant_categories: string }>();
    expect(JSON.parse(merchant?.merchant_categories ?? "{}")).toEqual({ google: { id: expect.any(String) } });
  });

  it("gives brands and categories valid slugs (unique per locale for categories)", async () => {
    const brands = await env.DB.prepare("SELECT slug FROM brands").all<{ slug: string }>();
    const brandSlugs = brands.results.map((r) => r.slug);
    for (const slug of brandSlugs) expect(slug).toMatch(SLUG_PATTERN);
    expect(new Set(brandSlugs).size).toBe(brandSlugs.length);
    expect(brandSlugs).toEqual(expect.arrayContaining(["bosque-co", "delice-cuisine", "medved", "kyma"]));

    const categories = await env.DB.prepare(
      "SELECT locale, slug FROM category_translations WHERE locale = 'es-ES' ORDER BY category_id",
    ).all<{ locale: string; slug: string }>();
    for (const row of categories.results) expect(row.slug).toMatch(SLUG_PATTERN);
    expect(categories.results.map((r) => r.slug)).toEqual(
      expect.arrayContaining(["accesorios", "accesorios-2"]),
    );
  });

  it("authenticates the well-known local keys with their scopes", async () => {
    const list = await api("/api/v1/suppliers", auth(DEV_KEY));
    expect(list.status).toBe(200);
    expect(list.json.pagination.total).toBe(8);
    expect(list.json.data[0]).toEqual({ id: 1, name: "Distribuciones Levante S.L." });

    const read = await api("/api/v1/suppliers", auth(READONLY_KEY));
    expect(read.status).toBe(200);
    const write = await api("/api/v1/suppliers", {
      ...auth(READONLY_KEY),
      method: "POST",
      body: { name: "Nope", internal_id: "SUP-NOPE" },
    });
    expect(write.status).toBe(403);

    const row = await env.DB.prepare("SELECT prefix, key_hash, scopes FROM api_keys WHERE id = 1").first<{
      prefix: string;
      key_hash: string;
      scopes: string;
    }>();
    expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.prefix).toBe("sfk_local_");
    expect(JSON.parse(row?.scopes ?? "[]")).toEqual(["read", "write", "admin"]);
  });
});

describe("seed statements", () => {
  it("are deterministic", async () => {
    const [a, b] = [await buildSeed({ includeLocalKeys: true }), await buildSeed({ includeLocalKeys: true })];
    expect(a).toEqual(b);
    expect(toSqlScript(a)).toBe(toSqlScript(b));
    expect(await buildSeed({ scale: 3 })).toEqual(await buildSeed({ scale: 3 }));
  });

  it("bind fewer than 100 parameters each, one per placeholder", async () => {
    for (const s of await buildSeed({ scale: 2, includeLocalKeys: true })) {
      expect(s.params.length).toBeLessThanOrEqual(MAX_PARAMS_PER_STATEMENT);
      expect(s.sql.split("?").length - 1).toBe(s.params.length);
    }
  });

  it("inline parameters as escaped SQL literals", () => {
    const script = toSqlScript([
      { sql: "INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)", params: ["it's; a ? mark", 12.5, null, -3] },
      { sql: "SELECT '?' AS q, ? AS v", params: ["x"] },
    ]);
    expect(script).toBe(
      "INSERT INTO t (a, b, c, d) VALUES ('it''s; a ? mark', 12.5, NULL, -3);\nSELECT '?' AS q, 'x' AS v;\n",
    );
  });

  it("scale multiplies the counts and still respects every constraint", async () => {
    await load(await buildSeed({ scale: 3, includeLocalKeys: true }));
    expect(await counts()).toMatchObject({
      brands: 36,
      categories: 81,
      suppliers: 24,
      store: 1,
      api_keys: 2,
    });
  });

  it("without includeLocalKeys creates no API key", async () => {
    const statements = await buildSeed({ includeLocalKeys: false });
    expect(statements.some((s) => s.sql.includes("api_keys"))).toBe(false);
    await load(statements);
    expect((await counts()).api_keys).toBe(0);
  });

  it("refuses a scale that is not a positive number", async () => {
    await expect(buildSeed({ scale: 0 })).rejects.toThrow(RangeError);
    await expect(buildSeed({ scale: Number.NaN })).rejects.toThrow(RangeError);
  });
});
