import type { GetColumnData } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { FieldDef } from "./resource.ts";
import { columnKey } from "./sql.ts";

/**
 * A field that is one column of the base row: rendered as stored and written from the body key of
 * the field's name (write/column-changes.ts). `Stored`, given explicitly (never inferred), narrows
 * the column's type when every writer stores less than it allows (a text column holding an enum).
 */
export function column<C extends SQLiteColumn, Stored extends GetColumnData<C> = GetColumnData<C>>(
  col: C,
  kind?: FieldDef<object>["kind"],
): FieldDef<object, NoInfer<Stored>, object> {
  const key = columnKey(col);
  return {
    ...(kind ? { kind } : {}),
    column: col,
    render: (row) => (row as Record<string, unknown>)[key] as Stored,
  };
}
