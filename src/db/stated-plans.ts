import { getTableName, is, type SQL, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema/index.ts";
import type { SqlColumn } from "./sql-row.ts";

/**
 * SQL pieces whose plan does not depend on SQLite's planner statistics (DECISIONS §14). With the
 * statistics of a small catalog (the demo seed: 40 products, 120 variants) kept while imports grow
 * it 50×, the planner believes every catalog table has a few dozen rows and prefers reading one
 * whole over looking up the ~25 rows it expects a `json_each` to hold: `x IN (SELECT value FROM
 * json_each(?))` and `FROM json_each(?) AS j JOIN t` both became `SCAN t` per statement (a 2,000-key
 * variant match took 2.6 s on 4,353 variants instead of 5 ms). Each piece here states the plan:
 * - a join driven by the keys: `FROM (keys) AS j CROSS JOIN t ON t.k = j.value`, which SQLite never
 *   reorders (the CROSS JOIN's left side stays the outer loop), so `t` is searched once per key;
 * - an `UPDATE … FROM` over materialized rows: the target cannot be put after a CROSS JOIN, but a
 *   materialized table as the inner loop would be read whole per target row, so looking the target
 *   up per row is the cheaper plan by a factor of the table's size, under any statistics;
 * - a `DELETE` naming its key's index (`INDEXED BY`), where an `IN` on the key is otherwise costed
 *   against a scan of a table believed small.
 */

/** The distinct values of a JSON array, as the outer side of a `CROSS JOIN` (column `value`). */
export const jsonKeys = (json: string): SQL => sql`(SELECT DISTINCT value FROM json_each(${json}))`;

/**
 * The elements of a JSON array as a materialized table (column `value`), for `UPDATE t … FROM`:
 * `LIMIT -1` (no limit) keeps SQLite from flattening it back into a bare `json_each`, whose
 * estimated cost of 1 per pass made it the inner loop of a scan of the target.
 */
export const jsonRowsTable = (json: string): SQL => sql`(SELECT value FROM json_each(${json}) LIMIT -1)`;

const KEY_INDEXES = new Map<SQLiteTable, { name: string; columns: string[] }[]>();
for (const table of Object.values(schema)) {
  if (!is(table, SQLiteTable)) continue;
  const config = getTableConfig(table);
  KEY_INDEXES.set(table, [
    // A composite primary key, or one column's that is not the rowid (text), is each table's only
    // inline constraint: SQLite names its index _1.
    ...config.primaryKeys.map((pk) => ({
      name: `sqlite_autoindex_${config.name}_1`,
      columns: pk.columns.map((c) => c.name),
    })),
    ...config.columns
      .filter((c) => c.primary && c.getSQLType() !== "integer")
      .map((c) => ({ name: `sqlite_autoindex_${config.name}_1`, columns: [c.name] })),
    ...config.indexes.map((index) => ({
      name: index.config.name,
      columns: index.config.columns.map((c) => (c as { name?: string }).name ?? ""),
    })),
  ]);
}

/** `INDEXED BY` the index of `table` whose leading columns are `keys` (throws when it has none). */
export function indexedBy<T extends SQLiteTable>(table: T, keys: readonly SqlColumn<T>[]): SQL {
  const index = KEY_INDEXES.get(table)?.find((i) => keys.every((k, at) => i.columns[at] === k));
  if (!index) throw new Error(`${getTableName(table)} has no index on (${keys.join(", ")})`);
  return sql.raw(` INDEXED BY "${index.name}"`);
}
