import { type SQL, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { nowIso } from "./schema/columns.ts";
import type { FEED_RESOURCES } from "./schema/enums.ts";
import {
  brands,
  categories,
  changeFeed,
  priceLists,
  products,
  reviews,
  suppliers,
  variants,
} from "./schema/index.ts";

/*
 * The change feed's entries (`GET /api/v1/changes`, src/changes/): every writer of the catalog puts
 * the entries of what it changed in the D1 batch that commits the change, beside its edge cache
 * bump, so both commit or neither does. One entry per changed entity per commit; `seq` is the
 * feed's newest plus the row's number, and D1 runs one write transaction at a time, so seq order is
 * commit order.
 */

export type FeedResource = (typeof FEED_RESOURCES)[number];

/** Each resource's table and the column its entries copy as `internal_id` (reviews have none). */
const SOURCES: Record<
  FeedResource,
  { table: SQLiteTable & { id: SQLiteColumn }; internalId?: SQLiteColumn }
> = {
  brands: { table: brands, internalId: brands.internalId },
  categories: { table: categories, internalId: categories.internalId },
  suppliers: { table: suppliers, internalId: suppliers.internalId },
  products: { table: products, internalId: products.internalId },
  variants: { table: variants, internalId: variants.internalId },
  price_lists: { table: priceLists, internalId: priceLists.internalId },
  reviews: { table: reviews },
};

/**
 * The entries of the rows of `resource` named by `ids` that pass `where` (over the resource's
 * table): a SELECT of change_feed's columns in table order (`seq`: the feed's newest plus the
 * row's number). `ids` is one id (a number, or a scalar SQL expression), or `{ each }`: a SELECT of ids in a column named
 * `value`, read first (CROSS JOIN) so the table is searched by id whatever the planner's statistics.
 * Rows that do not exist, or fail `where`, add nothing. `changedAt` defaults to the statement's time.
 */
function feedSelect(
  resource: FeedResource,
  ids: FeedIds,
  { change = "upserted", where, changedAt = nowIso }: FeedOptions,
): SQL {
  const { table, internalId } = SOURCES[resource];
  const from =
    typeof ids === "object" && "each" in ids
      ? sql`(${ids.each}) AS k CROSS JOIN ${table} ON ${table.id} = k.value`
      : sql`${table}`;
  const conditions = [
    ...(typeof ids === "object" && "each" in ids ? [] : [sql`${table.id} = (${ids})`]),
    ...(where ? [where] : []),
  ];
  return sql`SELECT coalesce((SELECT max(seq) FROM change_feed), 0) + row_number() OVER (), ${resource}, ${table.id}, ${internalId ?? sql`NULL`}, ${change}, ${changedAt} FROM ${from}
    WHERE ${conditions.length > 0 ? sql.join(conditions, sql` AND `) : sql`true`}`;
}

/** One id (a number or a scalar expression), or a SELECT of ids in a column named `value`. */
type FeedIds = number | SQL | { each: SQL };

interface FeedOptions {
  change?: "upserted" | "deleted";
  where?: SQL;
  changedAt?: SQL | string;
}

/** The entries of a bulk plan's rows, as a statement of its raw batch (src/async/bulk/feed-entries.ts). */
export const feedEntries = (resource: FeedResource, ids: FeedIds, options: FeedOptions = {}): SQL =>
  sql`INSERT INTO ${changeFeed} ${feedSelect(resource, ids, options)}`;

/**
 * A route's entry for the entity it wrote, as an item of its drizzle batch: with `ifChanged`, only
 * when the statement just before it in the batch changed a row (`changes()`), so a write refused
 * for an unknown id adds nothing.
 */
export const routeFeedEntry = (
  // biome-ignore lint/suspicious/noExplicitAny: any drizzle SQLite database
  db: BaseSQLiteDatabase<"async", any, any>,
  resource: FeedResource,
  id: number | SQL,
  { ifChanged = false } = {},
) =>
  db.insert(changeFeed).select(
    feedSelect(resource, typeof id === "number" ? id : sql`SELECT ${id}`, {
      ...(ifChanged ? { where: sql`changes() > 0` } : {}),
    }),
  );

/** Names the feed's key, so its ranges are searched whatever the planner's statistics say. */
export const FEED_KEY = sql.raw("INDEXED BY sqlite_autoindex_change_feed_1");
