import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CHANGE_KINDS, FEED_RESOURCES } from "./enums.ts";

/**
 * The change feed (`GET /api/v1/changes`): one row per changed catalog entity per commit, written in
 * the batch that commits the change (src/db/change-feed.ts). `seq` is the rowid: D1 runs one write
 * transaction at a time, so max + 1 follows commit order, and the feed is read by rowid ranges.
 * No secondary index: an entry costs exactly one written row. Retention (src/changes/retention.ts)
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
