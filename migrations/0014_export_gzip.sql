ALTER TABLE `job_exports` ADD `text_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `job_exports` ADD `text_crc` integer DEFAULT 0 NOT NULL;