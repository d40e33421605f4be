import type { ResourceDef } from "../resource.ts";
import { columnKey } from "../sql.ts";

/**
 * The columns a write body sets, from the declaration: every field declared as a plain column
 * (`column(...)`) whose key the body carries, under that column's property name. A key not sent is
 * left out (an update keeps the stored value, an insert gets the column's default); `null` clears.
 * Values are written as the body's schema validated them.
 */
export function columnChanges<Row extends { id: number | string }, TrRow>(
  resource: ResourceDef<Row, TrRow>,
  body: object,
): Partial<Row> {
  const sent = body as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.column && sent[name] !== undefined) changes[columnKey(field.column)] = sent[name];
  }
  return changes as Partial<Row>;
}
