import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { STAMP_COLUMN } from "./bulk-sql.ts";

/*
 * How many succeeded records of a plan changed nothing (the job's `writes.unchanged_records`):
 * expressions read in the plan's batch after its effects. A write that changes a row stamps it
 * with the plan's `now` (row-ops.ts), so a record changed nothing when the row it stands for was
 * not stamped. A row stamped earlier in the same second (the same feed sent twice at once) counts
 * as changed, unless the batch wrote no row at all: then every record is unchanged (commitWithBooks).
 */

const stamp = sql.identifier(STAMP_COLUMN);

/** Records each standing for the row of `table` with one of `ids` (one id per record, repeats count). */
export function unchangedById(table: SQLiteTable, ids: readonly number[], now: string): SQL {
  if (ids.length === 0) return sql`0`;
  return sql`(SELECT count(*) FROM json_each(${JSON.stringify(ids)}) AS r CROSS JOIN ${sql.identifier(getTableName(table))} AS t ON t.id = r.value WHERE t.${stamp} IS NOT ${now})`;
}

/** A count known when planning (records that had nothing to write) added to an expression. */
export const plus = (expression: SQL, count: number): SQL =>
  count === 0 ? expression : sql`(${expression} + ${count})`;
