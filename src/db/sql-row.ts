import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A row of `T` keyed by its SQL column names, as set-based statements bind rows
 * (src/async/bulk/bulk-sql.ts): a misspelt or foreign column does not compile. Values are the JSON
 * the statement stores. For a table not known more closely (`SQLiteTable`) any name is a column.
 */
export type SqlRow<T extends SQLiteTable> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]?: unknown;
};
export type SqlColumn<T extends SQLiteTable> = keyof SqlRow<T> & string;
