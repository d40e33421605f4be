import { inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { jsonIn } from "./sql.ts";

/**
 * The ids of the rows a request renders, as SQL a loader can filter on. A `get` knows them (a
 * list); a list page does not before its page query ran, so its loaders filter on that very query
 * (a subquery) and go in the same round trip as the page.
 */
export interface IdSet {
  /** `column IN (the ids)`. */
  in(column: SQLiteColumn | SQL): SQL;
}

export const idList = (ids: readonly (number | string)[]): IdSet => ({
  in: (column) => jsonIn(column, ids),
});

/** The ids a one-column select returns (`SELECT id FROM … ORDER BY … LIMIT …`). */
export const idQuery = (query: SQL | Parameters<typeof inArray>[1]): IdSet => ({
  in: (column) => inArray(column as SQLiteColumn, query as Parameters<typeof inArray>[1]),
});
