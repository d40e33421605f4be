import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One counter per invalidation domain of the edge cache (src/edge/): every cached answer's key
 * carries the counters of the domains it reads, and a committed write that changed a domain bumps
 * its counter once, in the same D1 batch as the change (src/db/cache-generations.ts). A missing row
 * reads as 0; the first bump starts a domain at a random value, so a database emptied and loaded
 * again never reuses a key of the answers cached before.
 */
export const cacheGenerations = sqliteTable("cache_generations", {
  domain: text("domain").primaryKey(),
  generation: integer("generation").notNull(),
  /**
   * `products` only: per bucket of product ids (`id % STAMP_BUCKETS`), the generation of the last
   * write that changed a product of the bucket, as a JSON array; null when a write did not say which
   * products it changed (every bucket is then at `generation`). src/db/cache-generations.ts.
   */
  stamps: text("stamps"),
});
