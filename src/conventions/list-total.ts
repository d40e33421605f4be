import { count, eq, getTableName, type SQL, sql } from "drizzle-orm";
import { rowCounts } from "../db/schema/index.ts";
import type { Db } from "../env.ts";
import type { ListSource } from "./list-source.ts";
import type { ConventionQuery } from "./query-schema.ts";
import type { AnyResource } from "./resource.ts";

/**
 * The `row_counts` key holding a list's total, if one does: the table's own for a list without any
 * condition, a filter's `keptCount` when that filter is the list's only condition; else undefined.
 */
export function keptCountKey(
  resource: AnyResource,
  query: ConventionQuery,
  where: SQL | undefined,
  scoped: boolean,
): string | undefined {
  if (where === undefined) return getTableName(resource.table);
  if (scoped || resource.where) return undefined;
  const given = Object.entries(resource.filters ?? {}).filter(([name]) => query[name] !== undefined);
  const [only] = given;
  return given.length === 1 && only ? only[1].keptCount?.(query[only[0]] as never) : undefined;
}

/**
 * The query of a list's total (`{ n }`, one row). With a kept count it reads that one row of
 * `row_counts`, however large the table; otherwise it counts the matches through the condition's
 * index.
 */
export function totalQuery(
  db: Db,
  resource: AnyResource,
  { from, where }: ListSource,
  key: string | undefined,
) {
  if (key === undefined) return db.select({ n: count() }).from(from).where(where);
  // An aggregate answers one row even when the key has no row yet: then coalesce counts.
  const counted = sql`(SELECT count(*) FROM ${resource.table}${where ? sql` WHERE ${where}` : sql``})`;
  return db
    .select({ n: sql<number>`coalesce(max(${rowCounts.n}), ${counted})`.mapWith(Number) })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, key));
}
