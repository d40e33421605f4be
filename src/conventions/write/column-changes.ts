import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AnyResource, ResourceDef } from "../resource.ts";
import { columnKey } from "../sql.ts";

/**
 * The columns a write body sets, from the declaration: every field declared as a plain column
 * (`column(...)`) whose key the body carries, keyed by `key(column)` (the column's property; bulk
 * SQL keys by its SQL name, `sqlName`). A key not sent is left out (an update keeps the stored
 * value, an insert gets the column's default); `null` clears. Values are written as the body's
 * schema validated them.
 */
export function columnChanges<Row extends { id: number | string }, TrRow>(
  resource: ResourceDef<Row, TrRow>,
  body: object,
): Partial<Row>;
export function columnChanges(
  resource: AnyResource,
  body: object,
  key: (column: SQLiteColumn) => string,
): Record<string, unknown>;
export function columnChanges(
  resource: AnyResource,
  body: object,
  key: (column: SQLiteColumn) => string = columnKey,
): Record<string, unknown> {
  const sent = body as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.column && sent[name] !== undefined) changes[key(field.column)] = sent[name];
  }
  return changes;
}

/** A column's SQL name: the key of the rows bulk statements write (src/async/bulk/bulk-sql.ts). */
export const sqlName = (column: SQLiteColumn) => column.name;
