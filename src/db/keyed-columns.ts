import { Column, getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/**
 * A selection whose every field SQL names `AS` its key, decoded as before: D1's rows then already
 * have drizzle's keys, and `fastBatch` hands them over instead of building a copy of each row.
 * The type is the selection's own, so the rows are typed as drizzle would type them.
 */
export function keyedColumns<T extends Record<string, unknown>>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (is(field, Column)) out[key] = sql`${field}`.mapWith(field as unknown as Decoder).as(key);
    else if (is(field, SQL)) out[key] = field.as(key);
    else if (is(field, SQL.Aliased))
      out[key] = sql`${field.sql}`.mapWith((field.sql as unknown as { decoder: Decoder }).decoder).as(key);
    else throw new Error(`keyedColumns: ${key} is not a column or SQL`);
  }
  return out as T;
}

/** Every column of `table`, keyed (`db.select(tableColumns(t))` for `db.select()`). */
export const tableColumns = <T extends SQLiteTable>(table: T) => keyedColumns(getTableColumns(table));
