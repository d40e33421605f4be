import { eq, type SQL, sql } from "drizzle-orm";
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
 * Domains whose generation is also kept per bucket of ids (`stamps`, one JSON array of the
 * generation of the last write that changed an id of each bucket), and how many buckets:
 * - `products`: `GET /products/{id}` is keyed by its id's bucket (`id % 4096`), so a job that
 *   changed 300 products ends the cached pages of at most 300 buckets; 4,096 stamps are one row of
 *   about 50 KB, read with the generations (src/edge/generations.ts);
 * - `category_tree`: a products list filtered by `category_ids` is keyed by the buckets of the
 *   categories it names (`id % 1024`), so moving a category ends only the lists of the categories
 *   it leaves or joins (its old and new ancestors).
 */
export const STAMPED_BUCKETS = { products: 4096, category_tree: 1024 } as const;

export type StampedDomain = keyof typeof STAMPED_BUCKETS;

export const STAMP_BUCKETS = STAMPED_BUCKETS.products;

/** What a write changed of the products domain: these products and the products of these variants. */
export interface ChangedProducts {
  productIds: readonly number[];
  variantIds: readonly number[];
}

/**
 * The statements that bump `products` for a write that knows which products it changed: the
 * generation once, and the stamps of those products' buckets to it (the other buckets keep
 * theirs). Run them before the write's own statements, so the products of variants it deletes are
 * still found.
 */
export function productsBump(changed: ChangedProducts): SQL[] {
  const buckets = sql`SELECT value % ${STAMP_BUCKETS} FROM json_each(${JSON.stringify(changed.productIds)})
        UNION SELECT v.product_id % ${STAMP_BUCKETS} FROM json_each(${JSON.stringify(changed.variantIds)}) AS k CROSS JOIN variants AS v ON v.id = k.value`;
  return stampedBump(offline, "products", buckets).map((statement) => statement.getSQL());
}

/**
 * The statements that bump `category_tree` for a category moved under `newParentId` (null: to the
 * top): the generation once, and the stamps of the buckets of every category whose subtree gains or
 * loses it, its ancestors before and after the move (its own subtree does not change). Run them
 * before the move.
 */
export function categoryTreeBump(
  // biome-ignore lint/suspicious/noExplicitAny: any drizzle SQLite database (D1's, or the offline one below)
  db: BaseSQLiteDatabase<"async", any, any>,
  categoryId: number,
  newParentId: number | null,
) {
  const starts = JSON.stringify(newParentId === null ? [categoryId] : [categoryId, newParentId]);
  const buckets = sql`WITH RECURSIVE chain(id) AS (SELECT value FROM json_each(${starts}) UNION SELECT c.parent_id FROM chain CROSS JOIN categories AS c ON c.id = chain.id WHERE c.parent_id IS NOT NULL) SELECT id % ${STAMPED_BUCKETS.category_tree} FROM chain WHERE id <> ${categoryId}`;
  return stampedBump(db, "category_tree", buckets);
}

/**
 * The generation of `domain` bumped once (its stamps kept), then the stamps of `buckets` (a SELECT
 * of bucket numbers) set to it. Stamps missing or malformed (a bump that named no ids nulls them)
 * start from the generation before this bump, which is what every bucket read as until now.
 */
function stampedBump(
  // biome-ignore lint/suspicious/noExplicitAny: any drizzle SQLite database
  db: BaseSQLiteDatabase<"async", any, any>,
  domain: StampedDomain,
  buckets: SQL,
) {
  const n = STAMPED_BUCKETS[domain];
  const stamps = sql`(
      SELECT json_group_array(CASE WHEN s.key IN (${buckets}) THEN cache_generations.generation ELSE s.value END ORDER BY s.key)
      FROM json_each(CASE WHEN json_valid(cache_generations.stamps) AND json_array_length(cache_generations.stamps) = ${n}
        THEN cache_generations.stamps
        ELSE (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1}) SELECT json_group_array(g) FROM (SELECT cache_generations.generation - 1 AS g FROM n))
      END) AS s
    )`;
  return [
    db
      .insert(cacheGenerations)
      .values({ domain, generation: sql`abs(random() % 1000000000000)` })
      .onConflictDoUpdate({
        target: cacheGenerations.domain,
        set: { generation: sql`${cacheGenerations.generation} + 1` },
      }),
    db.update(cacheGenerations).set({ stamps }).where(eq(cacheGenerations.domain, domain)),
  ] as const;
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
