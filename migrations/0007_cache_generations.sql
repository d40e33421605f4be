CREATE TABLE `cache_generations` (
	`domain` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL
);
