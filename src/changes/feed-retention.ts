import { sql } from "drizzle-orm";
import { FEED_KEY } from "../db/change-feed.ts";
import { createDb } from "../db/client.ts";
import { isoSeconds } from "../lib/time.ts";

/** Entries are kept this long at least (DECISIONS §14: 7 days). */
export const FEED_RETENTION_MS = 7 * 86_400_000;

/** Entries examined (and at most deleted) per round; rounds repeat while one deletes all it examined. */
const ROUND = 5_000;

/**
 * Deletes the oldest entries of the change feed, changed before `now` minus the retention: only a
 * prefix of `seq`, and never the newest entry, so the feed has no gaps and `seq` never goes back
 * (src/changes/feed-page.ts reads an expired cursor from the oldest entry kept). Entries of a bulk
 * chunk carry the chunk's own time, which may be a little older than an entry committed before
 * it: the prefix ends at the first entry still inside the window. Each round reads a range of at
 * most `ROUND` entries of the feed's key, whatever the feed's length.
 */
export async function purgeOldFeedEntries(d1: D1Database, now: number, maxRounds = 200): Promise<number> {
  const db = createDb(d1);
  const cutoff = isoSeconds(now - FEED_RETENTION_MS);
  let deleted = 0;
  for (let round = 0; round < maxRounds; round++) {
    const [ends] = await db.all<{ oldest: number | null; newest: number | null }>(
      sql`SELECT (SELECT min(seq) FROM change_feed) AS oldest, (SELECT max(seq) FROM change_feed) AS newest`,
    );
    if (ends?.oldest == null || ends.newest == null) break;
    const end = Math.min(ends.oldest + ROUND, ends.newest);
    const [kept] = await db.all<{ seq: number }>(
      sql`SELECT seq FROM change_feed ${FEED_KEY} WHERE seq >= ${ends.oldest} AND seq < ${end} AND changed_at >= ${cutoff} ORDER BY seq LIMIT 1`,
    );
    // Entries are only ever added above `newest`, so the range below the cut stays as read.
    const result = await db.run(
      sql`DELETE FROM change_feed ${FEED_KEY} WHERE seq >= ${ends.oldest} AND seq < ${kept?.seq ?? end}`,
    );
    const changes = (result as unknown as { meta: { changes: number } }).meta.changes;
    deleted += changes;
    if (kept || changes === 0) break;
  }
  return deleted;
}
