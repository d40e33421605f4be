import { getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { SUPPORTED_LOCALES } from "../lib/locales.ts";

/** SQL pieces the engine and the resource declarations share. */

export const jsonIn = (column: SQLiteColumn | SQL, values: readonly (string | number)[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * A few values (locales, markets) of the second column of an `(owner, key)` primary key, as bound
 * parameters: SQLite then searches the index on both columns and reads only the rows it returns.
 * With a `json_each` list it searched by owner alone and read every key of each owner (14 locales
 * read for one).
 */
export const keyIn = (column: SQLiteColumn, values: readonly string[]) => inArray(column, [...values]);

export const jsonInNoCase = (column: SQLiteColumn, values: readonly string[]) =>
  sql`${column} COLLATE NOCASE IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * Rows with at least one related row matching `condition`: `id IN (SELECT fk FROM related WHERE …)`,
 * uncorrelated, so the related table's index is searched once for the whole list. (A correlated
 * `EXISTS` probed it once per row of the list: a SKU filter scanned all 20,000 products, 64 ms.)
 */
export const hasRelated = (id: SQLiteColumn, fk: SQLiteColumn, related: SQLiteTable | SQL, condition: SQL) =>
  sql`${id} IN (SELECT ${fk} FROM ${related} WHERE ${condition})`;

/** Slugs in any locale through a `(locale, slug)` index: every supported locale × every slug. */
export const slugInAnyLocale = (locale: SQLiteColumn, slug: SQLiteColumn, slugs: readonly string[]) =>
  sql`${jsonIn(locale, SUPPORTED_LOCALES)} AND ${jsonIn(slug, slugs)}`;

const keys = new WeakMap<SQLiteColumn, string>();

/** The property name drizzle gives a column in selected rows. */
export function columnKey(column: SQLiteColumn): string {
  const known = keys.get(column);
  if (known !== undefined) return known;
  const entry = Object.entries(getTableColumns(column.table)).find(([, col]) => col === column);
  if (!entry) throw new Error(`column ${column.name} not in its table`);
  keys.set(column, entry[0]);
  return entry[0];
}
