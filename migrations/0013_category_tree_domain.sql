-- The edge cache's `category_tree` domain (src/db/cache-generations.ts): product lists filtered by
-- `category_ids` are keyed by it, not by `categories`. It starts at a random generation, as 0008's
-- domains did, so no entry keyed before the migration can match it.
INSERT INTO cache_generations (domain, generation)
	VALUES ('category_tree', abs(random() % 1000000000000))
	ON CONFLICT (domain) DO NOTHING;
