import { Column, getTableColumns, getTableName, is, SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

type Decoder = { mapFromDriverValue(value: unknown): unknown };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `"table"."column" AS "key"` as one raw chunk, decoded as the column; made once per column and key. */
const made = new WeakMap<SQLiteColumn, Map<string, SQL>>();
function keyedColumn(column: SQLiteColumn, key: string): SQL {
  let byKey = made.get(column);
  if (!byKey) {
    byKey = new Map();
    made.set(column, byKey);
  }
  let field = byKey.get(key);
  if (!field) {
    const text = `${quote(getTableName(column.table))}.${quote(column.name)} AS ${quote(key)}`;
    field = sql.raw(text).mapWith(column as unknown as Decoder);
    byKey.set(key, field);
  }
  return field;
}

/**
 * A selection whose every field SQL names `AS` its key, decoded as before: D1's rows then already
 * have drizzle's keys, and `fastBatch` hands them over instead of building a copy of each row.
 * A column is one raw chunk naming its table (never an aliased one), which drizzle renders without
 * walking it. The type is the selection's own, so the rows are typed as drizzle would type them.
 */
export function keyedColumns<T extends Record<string, unknown>>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (is(field, Column)) out[key] = keyedColumn(field as SQLiteColumn, key);
    else if (is(field, SQL)) out[key] = field.as(key);
    else if (is(field, SQL.Aliased))
      out[key] = sql`${field.sql}`.mapWith((field.sql as unknown as { decoder: Decoder }).decoder).as(key);
    else throw new Error(`keyedColumns: ${key} is not a column or SQL`);
  }
  return out as T;
}

const tables = new WeakMap<SQLiteTable, Record<string, unknown>>();

/** Every column of `table`, keyed (`db.select(tableColumns(t))` for `db.select()`); made once per table. */
export function tableColumns<T extends SQLiteTable>(table: T) {
  let columns = tables.get(table);
  if (!columns) {
    columns = keyedColumns(getTableColumns(table));
    tables.set(table, columns);
  }
  return columns as ReturnType<typeof getTableColumns<T>>;
}
