import { gte, lte } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { dateBoundParam } from "../http/params.ts";
import type { FilterDef } from "./resource.ts";

/**
 * `<name>_from` / `<name>_to`, inclusive; date-only values mean the start / end of that UTC day.
 * Values are canonical `YYYY-MM-DDTHH:MM:SSZ` text, compared with the stored text directly.
 */
export function dateRangeFilters(
  name: string,
  column: SQLiteColumn,
  what: string,
): Record<string, FilterDef> {
  return {
    [`${name}_from`]: {
      schema: dateBoundParam("from", `${what} at or after this instant (date or date-time, inclusive).`),
      where: (v: string) => gte(column, v),
    },
    [`${name}_to`]: {
      schema: dateBoundParam("to", `${what} at or before this instant (date or date-time, inclusive).`),
      where: (v: string) => lte(column, v),
    },
  };
}
