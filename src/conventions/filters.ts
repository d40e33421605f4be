import { eq, gte, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { dateBoundParam, enumListParam, enumParam, intListParam, stringListParam } from "../http/params.ts";
import type { FilterDef } from "./resource.ts";
import { hasRelated, jsonIn, jsonInNoCase, slugInAnyLocale } from "./sql.ts";

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

/** Rows whose `column` holds one of the listed ids. */
export const idsFilter = (column: SQLiteColumn, description: string, max?: number): FilterDef => ({
  schema: intListParam(description, max),
  where: (v: number[]) => jsonIn(column, v),
});

/** Rows whose `column` is one of the listed strings, each at most `maxLength` long (default 100). */
export const stringsFilter = (
  column: SQLiteColumn,
  description: string,
  opts: { maxLength?: number; caseInsensitive?: boolean } = {},
): FilterDef => ({
  schema: stringListParam(description, 200, opts.maxLength ?? 100),
  where: (v: string[]) => (opts.caseInsensitive ? jsonInNoCase(column, v) : jsonIn(column, v)),
});

/** Rows whose `column` holds the one value given, out of `values`. */
export const enumFilter = <const T extends readonly [string, ...string[]]>(
  column: SQLiteColumn,
  values: T,
  description: string,
): FilterDef => ({
  schema: enumParam(values, description),
  where: (v: T[number]) => eq(column, v),
});

/** Rows whose `column` holds one of the listed values, out of `values` (at most `max` of them). */
export const enumsFilter = <T extends string>(
  column: SQLiteColumn,
  values: readonly T[],
  description: string,
  max?: number,
): FilterDef => ({
  schema: enumListParam(values, description, max),
  where: (v: T[]) => jsonIn(column, v),
});

/** Rows with a translation whose slug, in any supported locale, is one of the listed (exact). */
export const translatedSlugFilter = (
  id: SQLiteColumn,
  translation: { fk: SQLiteColumn; locale: SQLiteColumn; slug: SQLiteColumn },
  description: string,
): FilterDef => ({
  schema: stringListParam(description, 200, 100),
  where: (v: string[]) =>
    hasRelated(
      id,
      translation.fk,
      translation.fk.table,
      slugInAnyLocale(translation.locale, translation.slug, v),
    ),
});

/** `filter` applied to related rows: `relate` turns its condition into one on the listed rows. */
export const viaRelated = (relate: (condition: SQL) => SQL, filter: FilterDef): FilterDef => ({
  ...filter,
  where: (v: never, ctx) => {
    const condition = filter.where(v, ctx);
    return condition && relate(condition);
  },
});
