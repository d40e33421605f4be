import { and, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ConventionQuery } from "./query-schema.ts";
import type { AnyResource, RenderContext } from "./resource.ts";

/** What a list's page and count read: its table, or a related-row filter's matches joined to it. */
export interface ListSource {
  from: SQLiteTable | SQL;
  /** The list's conditions, less the one its matches already apply. */
  where: SQL | undefined;
  /** Whether a filter's matches drive the list (its total is then always counted). */
  driven: boolean;
}

/**
 * The list's source and conditions. A filter through related rows (`sku`: products with a variant
 * of these SKUs) is a condition `products.id IN (SELECT product_id FROM variants WHERE …)`, and no
 * condition rules out reading the listed table whole: with statistics taken on a catalog 50×
 * smaller, SQLite walked every product in the sort's index order and checked the `IN` per row. The
 * first such filter given therefore drives the list instead: its distinct matches `CROSS JOIN` the
 * table by id, an order SQLite keeps, so the table is searched once per match under any
 * statistics (src/db/stated-plans.ts), and the page sorts the matches. Measured on node:sqlite,
 * 20,000 products with the demo seed's statistics: one SKU's page 1.2 ms (a walk of every product)
 * → 0.02 ms; a category holding every product 34–70 ms either way (the match list dominates), which
 * is also what fresh statistics choose for it.
 */
export function listSource(
  resource: AnyResource,
  query: ConventionQuery,
  ctx: RenderContext,
  extraWhere: SQL | undefined,
): ListSource {
  let matches: SQL | undefined;
  const conditions: (SQL | undefined)[] = [extraWhere, resource.where?.(ctx)];
  for (const [name, filter] of Object.entries(resource.filters ?? {})) {
    const value = query[name];
    if (value === undefined) continue;
    if (matches === undefined && filter.matches) matches = filter.matches(value as never, ctx);
    else conditions.push(filter.where(value as never, ctx));
  }
  if (matches === undefined) return { from: resource.table, where: and(...conditions), driven: false };
  // The select's one column named by the CTE's column list, whatever the related table calls it; a
  // name no listed table has, so the table's own columns stay unambiguous without a qualifier.
  const from = sql`(WITH matched(matched_id) AS (${matches}) SELECT DISTINCT matched_id FROM matched) AS matched CROSS JOIN ${resource.table} ON ${resource.idColumn} = matched.matched_id`;
  return { from, where: and(...conditions), driven: true };
}
