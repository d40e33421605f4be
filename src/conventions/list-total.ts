import { count, eq, getTableName, type SQL, sql } from "drizzle-orm";
import { rowCounts } from "../db/schema/index.ts";
import type { Db } from "../env.ts";
import type { AnyResource } from "./resource.ts";

/**
 * The query of a list's total (`{ n }`, one row). Without any condition it reads the table's count
 * that triggers keep in `row_counts` (one row, however large the table); a table without a kept
 * count is counted. With a condition it counts the matches, through the condition's index.
 */
export function totalQuery(db: Db, resource: AnyResource, where: SQL | undefined) {
  if (where !== undefined) return db.select({ n: count() }).from(resource.table).where(where);
  // An aggregate answers one row even when the table has no kept count: then coalesce counts.
  return db
    .select({
      n: sql<number>`coalesce(max(${rowCounts.n}), (SELECT count(*) FROM ${resource.table}))`.mapWith(Number),
    })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, getTableName(resource.table)));
}
