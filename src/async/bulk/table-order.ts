import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

/*
 * The order a batch writes tables in, read from the schema's foreign keys: a table comes after
 * every table it references, so rows inserted in one batch find their parents. A new table needs
 * no entry anywhere; its `references(...)` place it.
 */

const depths = new WeakMap<SQLiteTable, number>();

/** 0 for a table referencing no other, else one more than its deepest parent (self-references aside). */
function depth(table: SQLiteTable, path: readonly SQLiteTable[] = []): number {
  const known = depths.get(table);
  if (known !== undefined) return known;
  if (path.includes(table)) throw new Error(`${getTableConfig(table).name}: foreign keys form a cycle`);
  const parents = getTableConfig(table)
    .foreignKeys.map((fk) => fk.reference().foreignTable)
    .filter((parent) => parent !== table);
  const d = Math.max(-1, ...parents.map((parent) => depth(parent, [...path, table]))) + 1;
  depths.set(table, d);
  return d;
}

/** `tables` with parents before children; tables at one depth keep their given order. */
export function parentsFirst(tables: readonly SQLiteTable[]): SQLiteTable[] {
  return [...tables].sort((a, b) => depth(a) - depth(b));
}
