CREATE TABLE `row_counts` (
	`table_name` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
-- Hand-written below (drizzle-kit does not generate triggers): each listed table's rows counted in
-- row_counts by triggers, in the same transaction as the insert or delete, whoever writes; the
-- engine reads the count for a list without a filter. Upserts that update (ON CONFLICT DO UPDATE)
-- and inserts that are ignored fire no insert trigger; foreign-key cascades fire the delete ones.
INSERT INTO `row_counts` (`table_name`, `n`) VALUES
	('brands', (SELECT count(*) FROM `brands`)),
	('categories', (SELECT count(*) FROM `categories`)),
	('suppliers', (SELECT count(*) FROM `suppliers`)),
	('products', (SELECT count(*) FROM `products`)),
	('price_lists', (SELECT count(*) FROM `price_lists`)),
	('reviews', (SELECT count(*) FROM `reviews`)),
	('orders', (SELECT count(*) FROM `orders`)),
	('jobs', (SELECT count(*) FROM `jobs`)),
	('webhooks', (SELECT count(*) FROM `webhooks`));
--> statement-breakpoint
CREATE TRIGGER `brands_row_count_insert` AFTER INSERT ON `brands` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('brands', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `brands_row_count_delete` AFTER DELETE ON `brands` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'brands';
END;
--> statement-breakpoint
CREATE TRIGGER `categories_row_count_insert` AFTER INSERT ON `categories` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('categories', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_row_count_delete` AFTER DELETE ON `categories` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'categories';
END;
--> statement-breakpoint
CREATE TRIGGER `suppliers_row_count_insert` AFTER INSERT ON `suppliers` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('suppliers', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `suppliers_row_count_delete` AFTER DELETE ON `suppliers` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'suppliers';
END;
--> statement-breakpoint
CREATE TRIGGER `products_row_count_insert` AFTER INSERT ON `products` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('products', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_row_count_delete` AFTER DELETE ON `products` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'products';
END;
--> statement-breakpoint
CREATE TRIGGER `price_lists_row_count_insert` AFTER INSERT ON `price_lists` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('price_lists', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_lists_row_count_delete` AFTER DELETE ON `price_lists` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'price_lists';
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_row_count_insert` AFTER INSERT ON `reviews` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('reviews', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_row_count_delete` AFTER DELETE ON `reviews` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'reviews';
END;
--> statement-breakpoint
CREATE TRIGGER `orders_row_count_insert` AFTER INSERT ON `orders` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('orders', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_row_count_delete` AFTER DELETE ON `orders` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'orders';
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_row_count_insert` AFTER INSERT ON `jobs` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('jobs', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_row_count_delete` AFTER DELETE ON `jobs` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'jobs';
END;
--> statement-breakpoint
CREATE TRIGGER `webhooks_row_count_insert` AFTER INSERT ON `webhooks` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) VALUES ('webhooks', 1)
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `webhooks_row_count_delete` AFTER DELETE ON `webhooks` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'webhooks';
END;
--> statement-breakpoint
-- The contacts list always has a view (`view` is required): each view's matches are counted too,
-- under `contacts:<view>`, with the conditions of VIEWS in src/resources/contacts/contacts.resource.ts.
INSERT INTO `row_counts` (`table_name`, `n`) VALUES
	('contacts:customers', (SELECT count(*) FROM `contacts` WHERE `contacts`.`is_customer` = 1)),
	('contacts:subscribers', (SELECT count(*) FROM `contacts` WHERE `contacts`.`mkt_state` <> 'not_subscribed'));
--> statement-breakpoint
CREATE TRIGGER `contacts_view_count_insert` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'contacts:customers', 1 WHERE NEW.`is_customer` = 1
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
	INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'contacts:subscribers', 1 WHERE NEW.`mkt_state` <> 'not_subscribed'
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_view_count_delete` AFTER DELETE ON `contacts` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'contacts:customers' AND OLD.`is_customer` = 1;
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'contacts:subscribers' AND OLD.`mkt_state` <> 'not_subscribed';
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_view_count_update` AFTER UPDATE OF `is_customer`, `mkt_state` ON `contacts` BEGIN
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'contacts:customers' AND OLD.`is_customer` = 1;
	INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'contacts:customers', 1 WHERE NEW.`is_customer` = 1
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
	UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'contacts:subscribers' AND OLD.`mkt_state` <> 'not_subscribed';
	INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'contacts:subscribers', 1 WHERE NEW.`mkt_state` <> 'not_subscribed'
		ON CONFLICT (`table_name`) DO UPDATE SET `n` = `n` + 1;
END;
