import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Rows per listed table, so an unfiltered list's total is one row read instead of a count of the
 * table. Kept by triggers (migration 0005_row_counts) in the same transaction as every insert and
 * delete of the table, whoever writes: routes, bulk jobs, the seed, the retention cron.
 */
export const rowCounts = sqliteTable("row_counts", {
  tableName: text("table_name").primaryKey(),
  n: integer("n").notNull(),
});
