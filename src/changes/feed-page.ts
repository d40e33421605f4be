import { inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { FEED_KEY, type FeedResource } from "../db/change-feed.ts";
import { batch } from "../db/client.ts";
import { changeFeed } from "../db/schema/index.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../http/problem.ts";

/**
 * A page of the change feed: the entries after a cursor, in commit order. Entries are rows by
 * `seq` (rowid) with no gaps, retention deletes only the oldest (src/changes/feed-retention.ts),
 * so a cursor older than the oldest entry kept has missed entries (410), and a page reads the rows
 * of a range of `seq`: proportional to the page, whatever the feed's length.
 */

/** With `resources`, how many entries one page examines at most (it may then hold fewer). */
export const FEED_SCAN = 10_000;

/** Digits of a cursor: base 36, fixed width, so cursors also sort as text in commit order. */
const WIDTH = 11;

/** The opaque cursor of the position after `seq`. */
export const encodeCursor = (seq: number) => `c${seq.toString(36).padStart(WIDTH, "0")}`;

/** The `seq` a cursor stands after, or null for a string that is not one of ours. */
function decodeCursor(cursor: string): number | null {
  if (!new RegExp(`^c[0-9a-z]{${WIDTH}}$`).test(cursor)) return null;
  const seq = Number.parseInt(cursor.slice(1), 36);
  return Number.isSafeInteger(seq) ? seq : null;
}

export interface FeedQuery {
  after?: string;
  resources?: FeedResource[];
  per_page?: number;
}

export async function feedPage(c: Context<AppEnv>, query: FeedQuery) {
  const after = query.after === undefined ? 0 : decodeCursor(query.after);
  if (after === null) {
    throw new ApiError("invalid_parameter", "after: is not a cursor of this feed", [
      {
        location: "query",
        path: "after",
        message: "is not a cursor of this feed (use a next_cursor or an entry's cursor)",
      },
    ]);
  }
  const perPage = query.per_page ?? 100;
  const db = c.get("db");
  const wanted = query.resources;
  // Filtered, a page examines at most FEED_SCAN entries (the key's range), so it may be short.
  const window = wanted
    ? sql` AND seq <= ${after + FEED_SCAN} AND ${inArray(changeFeed.resource, wanted)}`
    : sql``;
  const [bounds, rows] = await batch(c, [
    // Two subqueries: SQLite reads min() or max() of the key from one end only when it is alone
    // in its query; together they would scan the feed.
    db
      .select({
        oldest: sql<number | null>`(SELECT min(seq) FROM change_feed)`,
        newest: sql<number | null>`(SELECT max(seq) FROM change_feed)`,
      })
      .from(sql`(SELECT 1)`),
    db
      .select({
        seq: sql<number>`seq`,
        resource: sql<FeedResource>`resource`,
        entityId: sql<number>`entity_id`,
        internalId: sql<string | null>`internal_id`,
        change: sql<"upserted" | "deleted">`change`,
        changedAt: sql<string>`changed_at`,
      })
      .from(sql`${changeFeed} ${FEED_KEY}`)
      .where(sql`seq > ${after}${window}`)
      .orderBy(sql`seq`)
      .limit(perPage),
  ]);
  const { oldest, newest } = bounds[0] ?? { oldest: null, newest: null };
  if (query.after !== undefined && oldest !== null && after < oldest - 1) {
    throw new ApiError(
      "cursor_expired",
      `The cursor is older than the oldest change kept (changes are kept at least 7 days); read from the start (without after) after a full sync`,
    );
  }
  const last = rows[rows.length - 1];
  // A full page continues after its last entry; a short one after what it examined.
  const examined = wanted ? Math.min(newest ?? 0, after + FEED_SCAN) : (newest ?? 0);
  const through = last && rows.length === perPage ? last.seq : Math.max(after, examined);
  return {
    data: rows.map((r) => ({
      cursor: encodeCursor(r.seq),
      resource: r.resource,
      id: r.entityId,
      internal_id: r.internalId,
      change: r.change,
      changed_at: r.changedAt,
    })),
    next_cursor: encodeCursor(through),
  };
}
