import { Column, getTableName, is, SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema/index.ts";

/*
 * What a bulk statement writes, as D1 counts it (meta.rows_written), from the rows it changed
 * (SQLite's changes()) and the table's indexes: a dry run's effects are rolled back, so D1 reports
 * nothing for them and this model stands in (src/async/bulk/dry-run.ts; a test checks it against
 * D1's figures for a real run of the same payload). Measured on workerd's D1: an inserted row
 * writes the row and one entry per index (a partial index only when the row qualifies); an
 * updated row writes the row and one entry per index holding a column its SET names, equal value
 * or not; a deleted row counts as one, whatever its indexes; statements of a trigger count as
 * their own writes.
 */

interface IndexCost {
  columns: string[];
  /** A partial index's columns, each required NOT NULL (the only partial indexes the schema has). */
  notNull: string[];
}

/** Rows written by the triggers of a table per inserted / deleted row (migrations 0005, 0006). */
const TRIGGER_WRITES: Readonly<Record<string, { insert: number; delete: number }>> = {
  [getTableName(schema.products)]: { insert: 1, delete: 1 },
  [getTableName(schema.priceListVariantPrices)]: { insert: 1, delete: 1 },
};

const columnsOf = (entry: unknown): string[] => {
  if (is(entry, Column)) return [entry.name];
  if (is(entry, SQL)) return entry.queryChunks.flatMap(columnsOf);
  return [];
};

const INDEXES = new Map<string, IndexCost[]>();
for (const table of Object.values(schema)) {
  if (!is(table, SQLiteTable)) continue;
  const config = getTableConfig(table);
  INDEXES.set(config.name, [
    ...config.primaryKeys.map((pk) => ({ columns: pk.columns.map((c) => c.name), notNull: [] })),
    ...config.columns
      .filter((c) => c.primary && c.getSQLType() !== "integer")
      .map((c) => ({ columns: [c.name], notNull: [] })),
    ...config.indexes.map((index) => ({
      columns: index.config.columns.flatMap(columnsOf),
      notNull: index.config.where ? columnsOf(index.config.where) : [],
    })),
  ]);
}

/** The indexes of a table by its SQL name (as a statement's text names it). */
const indexesNamed = (name: string): readonly IndexCost[] => INDEXES.get(name) ?? [];

/** The indexes of a table: what each written row of it adds. */
export const tableIndexes = (table: SQLiteTable): readonly IndexCost[] => indexesNamed(getTableName(table));

/**
 * Rows written by a statement that changed `changes` rows: its table's row and index entries, as
 * the statement's kind writes them. Unknown statements count their changed rows.
 */
export function rowsWrittenBy(
  statement: { sql: string; params: readonly unknown[] },
  changes: number,
): number {
  const text = statement.sql;
  const insert = /^INSERT INTO "?(\w+)"? \(([^)]*)\)/.exec(text);
  if (insert) {
    const table = insert[1] as string;
    const plain = indexesNamed(table).filter((i) => i.notNull.length === 0).length;
    const perRow = 1 + plain + (TRIGGER_WRITES[table]?.insert ?? 0);
    return changes * perRow + qualifyingRows(table, insert[2] as string, statement.params, changes);
  }
  const update = /^UPDATE "?(\w+)"? SET (.*?) (FROM|WHERE) /s.exec(text);
  if (update) {
    const set = [...(update[2] as string).matchAll(/(?:^|, )"?(\w+)"? = /g)].map((m) => m[1] as string);
    const touched = indexesNamed(update[1] as string).filter((i) =>
      [...i.columns, ...i.notNull].some((c) => set.includes(c)),
    ).length;
    return changes * (1 + touched);
  }
  const del = /^DELETE FROM "?(\w+)"?/.exec(text);
  if (del) return changes * (1 + (TRIGGER_WRITES[del[1] as string]?.delete ?? 0));
  return changes;
}

/**
 * Entries an insert adds to the table's partial indexes: its rows (bound as one JSON array of
 * arrays, bulk-sql.ts) whose required columns are all set. An insert that skipped rows (an upsert's
 * existing keys) is counted as if every sent row qualified only when all of them do.
 */
function qualifyingRows(
  table: string,
  columnList: string,
  params: readonly unknown[],
  changes: number,
): number {
  const partial = indexesNamed(table).filter((i) => i.notNull.length > 0);
  if (partial.length === 0) return 0;
  const columns = columnList.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
  const json = params.find((p): p is string => typeof p === "string" && p.startsWith("["));
  const rows = json ? (JSON.parse(json) as unknown[][]) : [];
  let entries = 0;
  for (const index of partial) {
    const at = index.notNull.map((c) => columns.indexOf(c));
    const qualifying = rows.filter((r) => at.every((i) => i >= 0 && r[i] !== null && r[i] !== undefined));
    entries += rows.length === changes ? qualifying.length : qualifying.length === rows.length ? changes : 0;
  }
  return entries;
}
