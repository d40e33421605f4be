import type { z } from "@hono/zod-openapi";
import { eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { indexedBy } from "../db/stated-plans.ts";
import {
  boolParam,
  dateBoundParam,
  enumListParam,
  enumParam,
  intListParam,
  intParam,
  stringListParam,
} from "../http/params.ts";
import type { FilterContext, FilterDef, UnbrandedFilter } from "./resource.ts";
import { hasRelated, jsonIn, jsonInNoCase, slugInAnyLocale } from "./sql.ts";

/**
 * A filter whose `where` (and `keptCount`) take the value `schema` parses to: the compiler checks
 * the two agree, so a condition never reads a value of another shape than the query validated.
 */
export function filter<S extends z.ZodType>(
  schema: S,
  where: (value: z.output<S>, ctx: FilterContext) => SQL | undefined,
  options: {
    required?: boolean;
    keptCount?: (value: z.output<S>) => string;
    matches?: (value: z.output<S>, ctx: FilterContext) => SQL | undefined;
  } = {},
): FilterDef {
  const def: UnbrandedFilter = { schema, where, ...options };
  // The brand is a type only: this is the one place a FilterDef is made.
  return def as FilterDef;
}

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
    [`${name}_from`]: filter(
      dateBoundParam("from", `${what} at or after this instant (date or date-time, inclusive).`),
      (v) => gte(column, v),
    ),
    [`${name}_to`]: filter(
      dateBoundParam("to", `${what} at or before this instant (date or date-time, inclusive).`),
      (v) => lte(column, v),
    ),
  };
}

/** Rows whose `column` holds the one id given (a positive integer). */
export const idFilter = (column: SQLiteColumn, description: string): FilterDef =>
  filter(intParam({ min: 1, description }), (v) => eq(column, v));

/** Rows whose boolean `column` is the value given (`true` or `false`). */
export const boolFilter = (column: SQLiteColumn, description: string): FilterDef =>
  filter(boolParam(description), (v) => eq(column, v));

/** Rows whose `column` holds one of the listed ids. */
export const idsFilter = (column: SQLiteColumn, description: string, max?: number): FilterDef =>
  filter(intListParam(description, max), (v) => jsonIn(column, v));

/** Rows whose `column` is one of the listed strings, each at most `maxLength` long (default 100). */
export const stringsFilter = (
  column: SQLiteColumn,
  description: string,
  opts: { maxLength?: number; caseInsensitive?: boolean } = {},
): FilterDef =>
  filter(stringListParam(description, 200, opts.maxLength ?? 100), (v) =>
    opts.caseInsensitive ? jsonInNoCase(column, v) : jsonIn(column, v),
  );

/** Rows whose `column` holds the one value given, out of `values`. */
export const enumFilter = <const T extends readonly [string, ...string[]]>(
  column: SQLiteColumn,
  values: T,
  description: string,
): FilterDef => filter(enumParam(values, description), (v) => eq(column, v));

/** Rows whose `column` holds one of the listed values, out of `values` (at most `max` of them). */
export const enumsFilter = <T extends string>(
  column: SQLiteColumn,
  values: readonly T[],
  description: string,
  max?: number,
): FilterDef => filter(enumListParam(values, description, max), (v) => jsonIn(column, v));

/** Rows with a translation whose slug, in any supported locale, is one of the listed (exact). */
export const translatedSlugFilter = (
  id: SQLiteColumn,
  translation: { fk: SQLiteColumn; locale: SQLiteColumn; slug: SQLiteColumn },
  description: string,
): FilterDef =>
  throughRelated(
    id,
    translation.fk,
    // Named, as the statistics of a small catalog made SQLite read every translation instead.
    sql`${translation.fk.table}${indexedBy(translation.fk.table, [translation.locale.name, translation.slug.name])}`,
    filter(stringListParam(description, 200, 100), (v) =>
      slugInAnyLocale(translation.locale, translation.slug, v),
    ),
  );

/**
 * `filter` applied to the rows of `related` whose `fk` is a listed row's `id`: rows with at least
 * one related row matching. Its `matches` (those related rows' `fk`) drive a list's page and count.
 */
export const throughRelated = (
  id: SQLiteColumn,
  fk: SQLiteColumn,
  related: SQLiteTable | SQL,
  filter: FilterDef,
): FilterDef => ({
  ...filter,
  where: (v: never, ctx) => {
    const condition = filter.where(v, ctx);
    return condition && hasRelated(id, fk, related, condition);
  },
  matches: (v: never, ctx) => {
    const condition = filter.where(v, ctx);
    return condition && sql`SELECT ${fk} FROM ${related} WHERE ${condition}`;
  },
  perRow: (v: never, ctx) => {
    const condition = filter.where(v, ctx);
    return condition && sql`EXISTS (SELECT 1 FROM ${related} WHERE ${fk} = ${id} AND ${condition})`;
  },
});

/** `filter` applied to related rows: `relate` turns its condition into one on the listed rows. */
export const viaRelated = (relate: (condition: SQL) => SQL, filter: FilterDef): FilterDef => ({
  ...filter,
  where: (v: never, ctx) => {
    const condition = filter.where(v, ctx);
    return condition && relate(condition);
  },
});
