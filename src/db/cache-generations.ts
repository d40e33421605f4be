import { sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { cacheGenerations } from "./schema/index.ts";

/**
 * The invalidation domains of the edge cache. An answer's key carries the generation of each
 * domain it reads; a write bumps the domains it changed, so a review leaves cached products valid,
 * and a brand renamed leaves every product page valid that does not embed brands.
 * - `brands`, `categories`, `suppliers`: their rows and translations;
 * - `products`: products, their variants (with prices per market), images, translations and
 *   category links: everything a products or variants bulk job writes;
 * - `price_lists`: price lists, their discounts and fixed variant prices;
 * - `reviews`: product and store reviews;
 * - `store`: the store's settings (locales, domains), read by every catalog answer.
 */
export const CACHE_DOMAINS = [
  "brands",
  "categories",
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
      sql`SELECT value, abs(random() % 1000000000000) FROM json_each(${JSON.stringify(domains)}) WHERE ${condition}`,
    )
    .onConflictDoUpdate({
      target: cacheGenerations.domain,
      set: { generation: sql`${cacheGenerations.generation} + 1` },
    });
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
