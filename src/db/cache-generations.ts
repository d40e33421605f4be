import { type SQL, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { cacheGenerations } from "./schema/index.ts";

/**
 * The invalidation domains of the edge cache. An answer's key carries the generation of each
 * domain it reads; a write bumps the domains it changed, so a review leaves cached products valid,
 * and a brand renamed leaves every product page valid that does not embed brands.
 * - `brands`, `categories`, `suppliers`: their rows and translations;
 * - `category_tree`: which category is under which (`parent_id`), the one thing of categories a
 *   product list filtered by `category_ids` reads, so renaming a category leaves those lists valid;
 * - `products`: products, their variants (with prices per market), images, translations and
 *   category links: everything a products or variants bulk job writes;
 * - `price_lists`: price lists, their discounts and fixed variant prices;
 * - `reviews`: product and store reviews;
 * - `store`: the store's settings (locales, domains), read by every catalog answer.
 */
export const CACHE_DOMAINS = [
  "brands",
  "categories",
  "category_tree",
  "suppliers",
  "products",
  "price_lists",
  "reviews",
  "store",
] as const;

export type CacheDomain = (typeof CACHE_DOMAINS)[number];

/**
 * The statement that bumps `domains` once: one row per domain, never a row per changed row, put in
 * the D1 batch that commits the change so both commit or neither does. A domain without a row
 * starts at a random value (a reloaded database never repeats a generation an entry was keyed by).
 * A drizzle batch item; `.getSQL()` gives it to a raw batch (src/db/raw.ts). With `ifChanged`, it
 * bumps only when the statement just before it in the batch changed a row (`changes()`), so a
 * write refused for an unknown id (0 rows) changes nothing, not even a generation.
 */
export function generationBump(
  // biome-ignore lint/suspicious/noExplicitAny: any drizzle SQLite database (D1's, or the offline one below)
  db: BaseSQLiteDatabase<"async", any, any>,
  domains: readonly CacheDomain[],
  { ifChanged = false } = {},
) {
  const condition = ifChanged ? sql`changes() > 0` : sql`true`;
  return db
    .insert(cacheGenerations)
    .select(
      sql`SELECT value, abs(random() % 1000000000000), NULL FROM json_each(${JSON.stringify(domains)}) WHERE ${condition}`,
    )
    .onConflictDoUpdate({
      target: cacheGenerations.domain,
      // Not saying which products changed: every bucket's stamp becomes the new generation.
      set: { generation: sql`${cacheGenerations.generation} + 1`, stamps: null },
    });
}

/**
 * Buckets of product ids, each with its own stamp: `GET /products/{id}` is keyed by its bucket's
 * stamp, not by the `products` generation, so a job that changed 300 products ends the cached
 * pages of at most 300 buckets and leaves the others' valid. 4,096 stamps are one row of about
 * 50 KB, read with the generations (src/edge/generations.ts).
 */
export const STAMP_BUCKETS = 4096;

/** What a write changed of the products domain: these products and the products of these variants. */
export interface ChangedProducts {
  productIds: readonly number[];
  variantIds: readonly number[];
}

/**
 * The statements that bump `products` for a write that knows which products it changed: the
 * generation once, and the stamps of those products' buckets to it (the other buckets keep
 * theirs). Run them before the write's own statements, so the products of variants it deletes are
 * still found. Stamps missing or malformed (a bump that named no products nulls them) start from
 * the generation before this bump, which is what every bucket read as until now.
 */
export function productsBump(changed: ChangedProducts): SQL[] {
  const last = STAMP_BUCKETS - 1;
  return [
    sql`INSERT INTO cache_generations (domain, generation) VALUES ('products', abs(random() % 1000000000000)) ON CONFLICT (domain) DO UPDATE SET generation = generation + 1`,
    sql`UPDATE cache_generations SET stamps = (
      SELECT json_group_array(CASE WHEN s.key IN (
        SELECT value % ${STAMP_BUCKETS} FROM json_each(${JSON.stringify(changed.productIds)})
        UNION SELECT v.product_id % ${STAMP_BUCKETS} FROM json_each(${JSON.stringify(changed.variantIds)}) AS k CROSS JOIN variants AS v ON v.id = k.value
      ) THEN cache_generations.generation ELSE s.value END ORDER BY s.key)
      FROM json_each(CASE WHEN json_valid(cache_generations.stamps) AND json_array_length(cache_generations.stamps) = ${STAMP_BUCKETS}
        THEN cache_generations.stamps
        ELSE (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${last}) SELECT json_group_array(g) FROM (SELECT cache_generations.generation - 1 AS g FROM n))
      END) AS s
    ) WHERE domain = 'products'`,
  ];
}

/**
 * The bump as one parameterized statement, for what writes D1 without a binding (the demo seed,
 * whose load must end every entry cached before it). Building a statement never touches the client.
 */
export function generationBumpStatement(domains: readonly CacheDomain[]): { sql: string; params: unknown[] } {
  return generationBump(offline, domains).toSQL();
}

/** A drizzle database that only builds statements (running one is an error). */
const offline = drizzle(async () => {
  throw new Error("statements of the offline database are built, never run");
});

/** Every domain's generation (0 for a domain never bumped). */
export type Generations = Record<CacheDomain, number>;
