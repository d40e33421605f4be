CREATE TABLE `change_feed` (
	`seq` integer PRIMARY KEY NOT NULL,
	`resource` text NOT NULL,
	`entity_id` integer NOT NULL,
	`internal_id` text,
	`change` text NOT NULL,
	`changed_at` text NOT NULL
) WITHOUT ROWID;
-- Hand-written: WITHOUT ROWID (drizzle-kit has no such option), so the primary key is an index the
-- feed's statements can name (INDEXED BY sqlite_autoindex_change_feed_1): a range of a rowid table
-- was planned as a scan under statistics taken while the feed was nearly empty. One b-tree: an
-- entry is still one row written. Writers assign seq = max(seq) + row number (src/db/change-feed.ts).
