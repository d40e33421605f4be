import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CHANGE_KINDS, FEED_RESOURCES } from "./enums.ts";

/**
 * The change feed (`GET /api/v1/changes`): one row per changed catalog entity per commit, written in
 * the batch that commits the change (src/db/change-feed.ts). A WITHOUT ROWID table keyed by `seq`
 * (migration 0012): writers assign max(seq) + 1, 2, …, and D1 runs one write transaction at a time,
 * so seq order is commit order and seqs have no gaps; the feed is read by ranges of its key. No
 * secondary index: an entry costs exactly one written row. Retention (src/changes/feed-retention.ts)
 * deletes only a prefix and never the newest entry, so `seq` never goes back.
 */
export const changeFeed = sqliteTable("change_feed", {
  seq: integer("seq").primaryKey(),
  resource: text("resource", { enum: FEED_RESOURCES }).notNull(),
  entityId: integer("entity_id").notNull(),
  internalId: text("internal_id"),
  change: text("change", { enum: CHANGE_KINDS }).notNull(),
  changedAt: text("changed_at").notNull(),
});
