CREATE TABLE `job_exports` (
	`job_id` text PRIMARY KEY NOT NULL,
	`format` text NOT NULL,
	`bounds` text,
	`cursor` integer DEFAULT 0 NOT NULL,
	`upload_id` text,
	`part_seq` integer DEFAULT 0 NOT NULL,
	`parts` text DEFAULT '[]' NOT NULL,
	`carry_key` text,
	`bytes` integer DEFAULT 0 NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
