ALTER TABLE `price_lists` ADD `customers_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `price_lists` ADD `variant_prices_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written below (drizzle-kit does not generate triggers): each price list's customers and
-- fixed variant prices counted on its own row by triggers on the child tables, in the same
-- transaction as the insert, delete or move, whoever writes (API, bulk jobs, seed); foreign-key
-- cascades (a contact or variant deleted) fire the delete ones. Upserts that update and inserts
-- that are skipped fire no insert trigger. No writer uses INSERT OR REPLACE on these tables (its
-- deletes would fire no delete trigger without recursive_triggers).
UPDATE `price_lists` SET
	`customers_count` = (SELECT count(*) FROM `price_list_customers` c WHERE c.`price_list_id` = `price_lists`.`id`),
	`variant_prices_count` = (SELECT count(*) FROM `price_list_variant_prices` p WHERE p.`price_list_id` = `price_lists`.`id`);
--> statement-breakpoint
CREATE TRIGGER `price_list_customers_count_insert` AFTER INSERT ON `price_list_customers` BEGIN
	UPDATE `price_lists` SET `customers_count` = `customers_count` + 1 WHERE `id` = NEW.`price_list_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_customers_count_delete` AFTER DELETE ON `price_list_customers` BEGIN
	UPDATE `price_lists` SET `customers_count` = `customers_count` - 1 WHERE `id` = OLD.`price_list_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_customers_count_move` AFTER UPDATE OF `price_list_id` ON `price_list_customers`
	WHEN NEW.`price_list_id` IS NOT OLD.`price_list_id` BEGIN
	UPDATE `price_lists` SET `customers_count` = `customers_count` - 1 WHERE `id` = OLD.`price_list_id`;
	UPDATE `price_lists` SET `customers_count` = `customers_count` + 1 WHERE `id` = NEW.`price_list_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_variant_prices_count_insert` AFTER INSERT ON `price_list_variant_prices` BEGIN
	UPDATE `price_lists` SET `variant_prices_count` = `variant_prices_count` + 1 WHERE `id` = NEW.`price_list_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_variant_prices_count_delete` AFTER DELETE ON `price_list_variant_prices` BEGIN
	UPDATE `price_lists` SET `variant_prices_count` = `variant_prices_count` - 1 WHERE `id` = OLD.`price_list_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_variant_prices_count_move` AFTER UPDATE OF `price_list_id` ON `price_list_variant_prices`
	WHEN NEW.`price_list_id` IS NOT OLD.`price_list_id` BEGIN
	UPDATE `price_lists` SET `variant_prices_count` = `variant_prices_count` - 1 WHERE `id` = OLD.`price_list_id`;
	UPDATE `price_lists` SET `variant_prices_count` = `variant_prices_count` + 1 WHERE `id` = NEW.`price_list_id`;
END;
