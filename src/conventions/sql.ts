import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** SQL pieces the engine and the resource declarations share. */

export const jsonIn = (column: SQLiteColumn | SQL, values: readonly (string | number)[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

export const jsonInNoCase = (column: SQLiteColumn, values: readonly string[]) =>
  sql`${column} COLLATE NOCASE IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

const keys = new WeakMap<SQLiteColumn, string>();

/** The property name drizzle gives a column in selected rows. */
export function columnKey(column: SQLiteColumn): string {
  const known = keys.get(column);
  if (known !== undefined) return known;
  const table = (column as unknown as { table: Parameters<typeof getTableColumns>[0] }).table;
  const entry = Object.entries(getTableColumns(table)).find(([, col]) => col === column);
  if (!entry) throw new Error(`column ${column.name} not in its table`);
  keys.set(column, entry[0]);
  return entry[0];
}
