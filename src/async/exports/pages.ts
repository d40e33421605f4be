import { and, type SQL, sql } from "drizzle-orm";
import { filterSchema } from "../../conventions/query-schema.ts";
import type { AnyResource, FilterContext } from "../../conventions/resource.ts";

/**
 * The export's `filters` (query-string values, as the job stored them) as conditions on one listed
 * row at a time: a plain filter's own condition, a filter through related rows its correlated form
 * (`perRow`). Checked at accept time with the same schema, so a stored value always parses.
 */
export function exportConditions(
  resource: AnyResource,
  values: Record<string, string>,
  ctx: FilterContext,
): SQL[] {
  const parsed = filterSchema(resource).parse(values) as Record<string, unknown>;
  const conditions: SQL[] = [];
  for (const [name, filter] of Object.entries(resource.filters ?? {})) {
    const value = parsed[name];
    if (value === undefined) continue;
    const condition = (filter.perRow ?? filter.where)(value as never, ctx);
    if (condition) conditions.push(condition);
  }
  return conditions;
}

/**
 * The ids (column `id`) of the listed rows matching `conditions` after `after` up to `bound`, in
 * id order. `NOT INDEXED` leaves SQLite one plan whatever its statistics: a walk of the table's
 * rowid range, each row checked (a related-row filter by one search of its related rows' key). No
 * other index can drive it, so no page sorts or re-reads all its matches: an export reads each row
 * of the range once over all its pages, whatever its filters (a selective one too: its cost is the
 * catalog's size, once).
 */
export function rowsAfter(
  resource: AnyResource,
  conditions: SQL[],
  after: number,
  bound: number,
  limit?: number,
): SQL {
  const id = resource.idColumn;
  const where = and(sql`${id} > ${after}`, sql`${id} <= ${bound}`, ...conditions);
  const page = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  return sql`SELECT ${id} AS id FROM ${resource.table} NOT INDEXED WHERE ${where} ORDER BY ${id}${page}`;
}
