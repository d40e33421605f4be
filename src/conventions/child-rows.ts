import { asc } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { tableColumns } from "../db/keyed-columns.ts";
import { loader } from "./loader.ts";
import type { Loader } from "./resource.ts";
import { columnKey } from "./sql.ts";

/** Rows grouped by the parent id `parentOf` reads from each, keeping their order. */
export function groupByParent<R>(rows: readonly R[], parentOf: (row: R) => number): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const row of rows) {
    const parent = parentOf(row);
    const list = out.get(parent);
    if (list) list.push(row);
    else out.set(parent, [row]);
  }
  return out;
}

/**
 * A loader of the rows of `table` under each row of the page (`fk` holds the page row's id), in
 * `order`, each rendered by `value`.
 */
export function childRowsLoader<T extends SQLiteTable, V>(
  table: T,
  fk: SQLiteColumn,
  order: SQLiteColumn[],
  value: (row: T["$inferSelect"]) => V,
): Loader<V[]> {
  const key = columnKey(fk);
  return loader({
    query: (db, ids) =>
      db
        .select(tableColumns(table as SQLiteTable))
        .from(table)
        .where(ids.in(fk))
        .orderBy(...order.map((c) => asc(c))),
    collect: (rows) => {
      // `table as SQLiteTable` above widens the rows' type; they are `table`'s.
      const grouped = groupByParent(rows as T["$inferSelect"][], (row) => row[key] as number);
      return new Map([...grouped].map(([parent, children]) => [parent, children.map(value)]));
    },
  });
}
