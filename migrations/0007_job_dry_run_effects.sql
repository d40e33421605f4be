CREATE TABLE `job_dry_run_effects` (
	`id` integer PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`rows` text,
	`query` text,
	`params` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `job_dry_run_effects_job_idx` ON `job_dry_run_effects` (`job_id`,`id`);