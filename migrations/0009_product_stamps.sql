ALTER TABLE `cache_generations` ADD `stamps` text;--> statement-breakpoint
-- Hand-written: the catalog domain is split into brands, categories, suppliers and products, each
-- starting at a random generation as 0008's did (src/db/cache-generations.ts).
INSERT INTO `cache_generations` (`domain`, `generation`)
	SELECT value, abs(random() % 1000000000000) FROM json_each('["brands","categories","suppliers","products"]')
	WHERE true ON CONFLICT (`domain`) DO NOTHING;
--> statement-breakpoint
DELETE FROM `cache_generations` WHERE `domain` = 'catalog';
