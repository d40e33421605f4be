CREATE TABLE `cache_generations` (
	`domain` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL
);
--> statement-breakpoint
-- Hand-written: every domain starts at a random generation, so no two databases (a reloaded one, or
-- the test files' own) share the keys of their cached answers (src/db/cache-generations.ts).
INSERT INTO `cache_generations` (`domain`, `generation`)
	SELECT value, abs(random() % 1000000000000) FROM json_each('["catalog","price_lists","reviews","store"]');
