import { isoSeconds } from "../lib/time.ts";

/** Entries are kept this long at least (DECISIONS §14: 7 days). */
export const FEED_RETENTION_MS = 7 * 86_400_000;

/** Entries deleted per statement; statements repeat (up to `maxRounds`) until one deletes fewer. */
const ROUND = 20_000;

/**
 * Deletes the oldest entries of the change feed, changed before `now` minus the retention: only a
 * prefix of `seq`, and never the newest entry, so the feed has no gaps and `seq` never goes back
 * (src/changes/feed-page.ts reads an expired cursor from the oldest entry kept). Entries of a bulk
 * chunk carry the chunk's own time, which may be a little older than an entry committed before
 * it: the prefix ends at the first entry still inside the window.
 */
export async function purgeOldFeedEntries(db: D1Database, now: number, maxRounds = 50): Promise<number> {
  const cutoff = isoSeconds(now - FEED_RETENTION_MS);
  let deleted = 0;
  for (let round = 0; round < maxRounds; round++) {
    const result = await db
      .prepare(
        `DELETE FROM change_feed WHERE seq < (
           SELECT min(bound) FROM (
             SELECT coalesce((SELECT seq FROM change_feed WHERE changed_at >= ?1 ORDER BY seq LIMIT 1), (SELECT max(seq) FROM change_feed)) AS bound
             UNION ALL SELECT (SELECT min(seq) FROM change_feed) + ?2
           ))`,
      )
      .bind(cutoff, ROUND)
      .run();
    deleted += result.meta.changes;
    if (result.meta.changes < ROUND) break;
  }
  return deleted;
}
