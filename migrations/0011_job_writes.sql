ALTER TABLE `jobs` ADD `unchanged_records` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `rows_written` integer DEFAULT 0 NOT NULL;