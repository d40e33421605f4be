import { inArray, Param, SQL, StringChunk, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { jsonIn } from "./sql.ts";

/**
 * The ids of the rows a request renders, as SQL a loader can filter on. A `get` knows them (a
 * list); a list page does not before its page query ran, so its loaders filter on that very query
 * (a subquery) and go in the same round trip as the page.
 */
export interface IdSet {
  /** `column IN (the ids)`. */
  in(column: SQLiteColumn | SQL): SQL;
  /**
   * The ids as a FROM item `(…) AS alias` with one column `id`, to drive a `CROSS JOIN` looking up
   * each row by its id. For a table's own id, `id IN (…)` is costed against a scan of the table,
   * which stale statistics (a catalog believed 40 rows) made the cheaper plan: a page of products'
   * brands and suppliers read both whole tables and all of `products` (src/db/stated-plans.ts).
   */
  rows(alias: string): SQL;
}

export const idList = (ids: readonly (number | string)[]): IdSet => ({
  in: (column) => jsonIn(column, ids),
  rows: (alias) =>
    sql`(SELECT DISTINCT value AS id FROM json_each(${JSON.stringify(ids)})) AS ${sql.raw(alias)}`,
});

type Subquery = Parameters<typeof inArray>[1];

/**
 * The ids a one-column select returns (`SELECT id FROM … ORDER BY … LIMIT …`, or a parenthesized
 * `sql` select). A page's loaders,
 * its includes and their loaders all filter on it (a dozen times on a page with includes): it is
 * built to SQL text once, and each use embeds that text and its parameters instead of building the
 * whole select again.
 */
export const idQuery = (query: SQL | Subquery): IdSet => {
  let built: SQL | Subquery | undefined;
  return {
    in: (column) => {
      built ??= prebuilt(query);
      return inArray(column as SQLiteColumn, built as Subquery);
    },
    // The select's one column named `id` whatever it selects (`brand_id`), by the CTE's column list.
    rows: (alias) => {
      built ??= prebuilt(query);
      return sql`(WITH ids(id) AS ${built} SELECT id FROM ids) AS ${sql.raw(alias)}`;
    },
  };
};

/**
 * `(the select)` as drizzle renders a select nested in a condition, as chunks of its finished text
 * and its (already encoded) parameters; the query itself when it cannot be taken apart that way.
 */
function prebuilt(query: SQL | Subquery): SQL | Subquery {
  const toSQL = (query as { toSQL?: () => { sql: string; params: unknown[] } }).toSQL;
  if (typeof toSQL !== "function") return query;
  const { sql: text, params } = toSQL.call(query);
  // SQLite's dialect writes each parameter as `?`; any other `?` in the text leaves it as it was.
  const pieces = `(${text})`.split("?");
  if (pieces.length !== params.length + 1) return query;
  const chunks: (StringChunk | Param)[] = [new StringChunk(pieces[0] as string)];
  params.forEach((value, i) => {
    chunks.push(new Param(value), new StringChunk(pieces[i + 1] as string));
  });
  return new SQL(chunks);
}
