CREATE TABLE `job_chunk_ranges` (
	`job_id` text NOT NULL,
	`chunk_index` integer NOT NULL,
	`first_record` integer NOT NULL,
	`record_count` integer NOT NULL,
	`byte_offset` integer NOT NULL,
	`byte_length` integer NOT NULL,
	PRIMARY KEY(`job_id`, `chunk_index`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `heartbeat_at` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `redrives` integer DEFAULT 0 NOT NULL;