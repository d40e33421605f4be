import { isoSeconds } from "../lib/time.ts";

/** Entries are kept this long at least (DECISIONS §14: 7 days). */
export const FEED_RETENTION_MS = 7 * 86_400_000;

/** Entries examined (and at most deleted) per round; rounds repeat while one deletes all it examined. */
const ROUND = 20_000;

/**
 * Deletes the oldest entries of the change feed, changed before `now` minus the retention: only a
 * prefix of `seq`, and never the newest entry, so the feed has no gaps and `seq` never goes back
 * (src/changes/feed-page.ts reads an expired cursor from the oldest entry kept). Entries of a bulk
 * chunk carry the chunk's own time, which may be a little older than an entry committed before
 * it: the prefix ends at the first entry still inside the window. Each round reads a rowid range
 * of at most `ROUND` entries, whatever the feed's length.
 */
export async function purgeOldFeedEntries(db: D1Database, now: number, maxRounds = 50): Promise<number> {
  const cutoff = isoSeconds(now - FEED_RETENTION_MS);
  let deleted = 0;
  for (let round = 0; round < maxRounds; round++) {
    const ends = await db
      .prepare(
        "SELECT (SELECT min(seq) FROM change_feed) AS oldest, (SELECT max(seq) FROM change_feed) AS newest",
      )
      .first<{ oldest: number | null; newest: number | null }>();
    if (ends?.oldest == null || ends.newest == null) break;
    const end = Math.min(ends.oldest + ROUND, ends.newest);
    const result = await db
      .prepare(
        `DELETE FROM change_feed WHERE seq >= ?1 AND seq < coalesce(
           (SELECT seq FROM change_feed WHERE seq >= ?1 AND seq < ?2 AND changed_at >= ?3 ORDER BY seq LIMIT 1), ?2)`,
      )
      .bind(ends.oldest, end, cutoff)
      .run();
    deleted += result.meta.changes;
    if (result.meta.changes < end - ends.oldest || end === ends.newest) break;
  }
  return deleted;
}
