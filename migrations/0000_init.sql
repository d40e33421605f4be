CREATE TABLE `brand_translations` (
	`brand_id` integer NOT NULL,
	`locale` text NOT NULL,
	`description` text,
	`body_html` text,
	`long_name` text,
	`meta_title` text,
	`meta_description` text,
	`size_guide_file` text,
	PRIMARY KEY(`brand_id`, `locale`),
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `brands` (
	`id` integer PRIMARY KEY NOT NULL,
	`internal_id` text,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`delivery_time_in_stock` integer,
	`delivery_time_out_of_stock` integer,
	`image_url` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brands_internal_id_unique` ON `brands` (`internal_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `brands_slug_unique` ON `brands` (`slug`);--> statement-breakpoint
CREATE INDEX `brands_name_idx` ON `brands` (`name`,`id`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`internal_id` text,
	`parent_id` integer,
	`status` text NOT NULL,
	`image_url` text,
	`merchant_categories` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_internal_id_unique` ON `categories` (`internal_id`);--> statement-breakpoint
CREATE INDEX `categories_parent_idx` ON `categories` (`parent_id`,`id`);--> statement-breakpoint
CREATE INDEX `categories_status_idx` ON `categories` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `category_translations` (
	`category_id` integer NOT NULL,
	`locale` text NOT NULL,
	`name` text,
	`slug` text,
	`description` text,
	`body_html` text,
	`long_name` text,
	`meta_title` text,
	`meta_description` text,
	PRIMARY KEY(`category_id`, `locale`),
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `category_translations_slug_unique` ON `category_translations` (`locale`,`slug`);--> statement-breakpoint
CREATE INDEX `category_translations_name_idx` ON `category_translations` (`locale`,`name`);--> statement-breakpoint
CREATE TABLE `product_categories` (
	`product_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`product_id`, `category_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `product_images` (
	`id` integer PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`url` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_images_product_idx` ON `product_images` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `product_translations` (
	`product_id` integer NOT NULL,
	`locale` text NOT NULL,
	`name` text,
	`slug_base` text,
	`slug` text,
	`description` text,
	`body_html` text,
	`long_name` text,
	`meta_title` text,
	`meta_description` text,
	PRIMARY KEY(`product_id`, `locale`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_translations_slug_unique` ON `product_translations` (`locale`,`slug`);--> statement-breakpoint
CREATE INDEX `product_translations_name_idx` ON `product_translations` (`locale`,`name`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY NOT NULL,
	`internal_id` text,
	`product_structure` text NOT NULL,
	`status` text NOT NULL,
	`product_kind` text NOT NULL,
	`stock_management` text NOT NULL,
	`online_availability` text,
	`model_code` text,
	`tax_category` text NOT NULL,
	`supplier_id` integer,
	`brand_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`supplier_id`) REFERENCES `suppliers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_internal_id_unique` ON `products` (`internal_id`);--> statement-breakpoint
CREATE INDEX `products_brand_idx` ON `products` (`brand_id`,`id`);--> statement-breakpoint
CREATE INDEX `products_supplier_idx` ON `products` (`supplier_id`,`id`);--> statement-breakpoint
CREATE INDEX `products_status_idx` ON `products` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `products_structure_idx` ON `products` (`product_structure`,`id`);--> statement-breakpoint
CREATE INDEX `products_created_idx` ON `products` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_updated_idx` ON `products` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `suppliers` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`internal_id` text NOT NULL,
	`description` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppliers_internal_id_unique` ON `suppliers` (`internal_id`);--> statement-breakpoint
CREATE INDEX `suppliers_name_idx` ON `suppliers` (`name`,`id`);--> statement-breakpoint
CREATE TABLE `variant_prices` (
	`variant_id` integer NOT NULL,
	`market` text NOT NULL,
	`currency` text NOT NULL,
	`list_price` text NOT NULL,
	`offer_price` text,
	`flash_price` text,
	`flash_valid_from` text,
	`flash_valid_until` text,
	PRIMARY KEY(`variant_id`, `market`),
	FOREIGN KEY (`variant_id`) REFERENCES `variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `variant_translations` (
	`variant_id` integer NOT NULL,
	`locale` text NOT NULL,
	`name` text,
	PRIMARY KEY(`variant_id`, `locale`),
	FOREIGN KEY (`variant_id`) REFERENCES `variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `variants` (
	`id` integer PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`supplier_id` integer,
	`internal_id` text,
	`sku` text,
	`ean` text,
	`status` text NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`quantity_factor` integer DEFAULT 1 NOT NULL,
	`supplier_stock` integer DEFAULT 0 NOT NULL,
	`warehouse_stock` integer DEFAULT 0 NOT NULL,
	`cost_price_amount` text,
	`cost_price_currency` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`supplier_id`) REFERENCES `suppliers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `variants_internal_id_unique` ON `variants` (`internal_id`);--> statement-breakpoint
CREATE INDEX `variants_product_idx` ON `variants` (`product_id`,`position`,`id`);--> statement-breakpoint
CREATE INDEX `variants_ean_idx` ON `variants` (`ean`);--> statement-breakpoint
CREATE INDEX `variants_sku_idx` ON `variants` ("sku" COLLATE NOCASE);--> statement-breakpoint
CREATE UNIQUE INDEX `variants_supplier_sku_unique` ON `variants` (`supplier_id`,"sku" COLLATE NOCASE) WHERE "variants"."supplier_id" IS NOT NULL AND "variants"."sku" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY NOT NULL,
	`internal_id` text,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`phone` text,
	`preferred_locale` text,
	`is_active` integer DEFAULT true NOT NULL,
	`customer_type` text,
	`is_b2b` integer DEFAULT false NOT NULL,
	`is_agreed_payment_enabled` integer DEFAULT false NOT NULL,
	`is_customer` integer DEFAULT false NOT NULL,
	`mkt_state` text DEFAULT 'not_subscribed' NOT NULL,
	`last_login_at` text,
	`orders_count` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_internal_id_unique` ON `contacts` (`internal_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_email_unique` ON `contacts` ("email" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `contacts_customer_idx` ON `contacts` (`is_customer`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_mkt_state_idx` ON `contacts` (`mkt_state`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_created_idx` ON `contacts` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_last_login_idx` ON `contacts` (`last_login_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_customer_type_idx` ON `contacts` (`customer_type`);--> statement-breakpoint
CREATE INDEX `contacts_orders_count_idx` ON `contacts` (`orders_count`);--> statement-breakpoint
CREATE TABLE `order_line_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`position` integer NOT NULL,
	`product_id` integer,
	`variant_id` integer,
	`sku` text,
	`ean` text,
	`display_name` text NOT NULL,
	`tax_rate` text NOT NULL,
	`quantity` integer NOT NULL,
	`list_price_gross` text NOT NULL,
	`final_price_gross` text NOT NULL,
	`final_price_net` text NOT NULL,
	`total_gross` text NOT NULL,
	`total_net` text NOT NULL,
	`total_tax` text NOT NULL,
	`discounts_applied` text NOT NULL,
	`additional_services` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_line_items_order_idx` ON `order_line_items` (`order_id`,`position`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`contact_id` integer,
	`email` text NOT NULL,
	`locale` text NOT NULL,
	`payment_status` text NOT NULL,
	`warehouse_release_status` text NOT NULL,
	`fulfillment_status` text NOT NULL,
	`delivery_method` text NOT NULL,
	`payment_method` text,
	`payment_gateway` text,
	`currency` text NOT NULL,
	`total_gross` text NOT NULL,
	`total_net` text NOT NULL,
	`total_tax` text NOT NULL,
	`shipping_gross` text NOT NULL,
	`shipping_net` text NOT NULL,
	`shipping_tax` text NOT NULL,
	`fees_gross` text NOT NULL,
	`fees_net` text NOT NULL,
	`fees_tax` text NOT NULL,
	`paid_at` text,
	`fulfilled_at` text,
	`canceled_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_paid_idx` ON `orders` (`paid_at`);--> statement-breakpoint
CREATE INDEX `orders_fulfilled_idx` ON `orders` (`fulfilled_at`);--> statement-breakpoint
CREATE INDEX `orders_contact_idx` ON `orders` (`contact_id`);--> statement-breakpoint
CREATE INDEX `orders_payment_status_idx` ON `orders` (`payment_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_fulfillment_status_idx` ON `orders` (`fulfillment_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_release_status_idx` ON `orders` (`warehouse_release_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_delivery_method_idx` ON `orders` (`delivery_method`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_canceled_idx` ON `orders` (`canceled_at`);--> statement-breakpoint
CREATE TABLE `price_list_customers` (
	`price_list_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	PRIMARY KEY(`price_list_id`, `contact_id`),
	FOREIGN KEY (`price_list_id`) REFERENCES `price_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `price_list_discount_brands` (
	`discount_id` integer NOT NULL,
	`brand_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`discount_id`, `brand_id`),
	FOREIGN KEY (`discount_id`) REFERENCES `price_list_discounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `price_list_discount_categories` (
	`discount_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`discount_id`, `category_id`),
	FOREIGN KEY (`discount_id`) REFERENCES `price_list_discounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `price_list_discounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`price_list_id` integer NOT NULL,
	`kind` text NOT NULL,
	`position` integer NOT NULL,
	`discount` text NOT NULL,
	FOREIGN KEY (`price_list_id`) REFERENCES `price_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_list_discounts_list_idx` ON `price_list_discounts` (`price_list_id`,`kind`,`position`);--> statement-breakpoint
CREATE TABLE `price_list_variant_prices` (
	`price_list_id` integer NOT NULL,
	`variant_id` integer NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`quantity_factor` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	PRIMARY KEY(`price_list_id`, `variant_id`),
	FOREIGN KEY (`price_list_id`) REFERENCES `price_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_list_variant_prices_variant_idx` ON `price_list_variant_prices` (`variant_id`);--> statement-breakpoint
CREATE TABLE `price_lists` (
	`id` integer PRIMARY KEY NOT NULL,
	`internal_id` text NOT NULL,
	`is_active` integer NOT NULL,
	`global_discount` text NOT NULL,
	`minimum_order_amount` text,
	`minimum_order_currency` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `price_lists_internal_id_unique` ON `price_lists` (`internal_id`);--> statement-breakpoint
CREATE INDEX `price_lists_active_idx` ON `price_lists` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`locale` text NOT NULL,
	`status` text NOT NULL,
	`rating` integer,
	`content` text NOT NULL,
	`reviewer_name` text,
	`reviewer_email` text NOT NULL,
	`order_id` integer,
	`customer_id` integer,
	`product_id` integer,
	`variant_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variant_id`) REFERENCES `variants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reviews_created_idx` ON `reviews` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `reviews_rating_idx` ON `reviews` (`rating`,`id`);--> statement-breakpoint
CREATE INDEX `reviews_product_idx` ON `reviews` (`product_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `reviews_status_idx` ON `reviews` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reviews_locale_idx` ON `reviews` (`locale`,`created_at`);--> statement-breakpoint
CREATE INDEX `reviews_type_idx` ON `reviews` (`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `job_chunks` (
	`job_id` text NOT NULL,
	`chunk_index` integer NOT NULL,
	`part` integer DEFAULT -1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	PRIMARY KEY(`job_id`, `chunk_index`, `part`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `job_logs` (
	`id` integer PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`severity` text NOT NULL,
	`code` text,
	`message` text NOT NULL,
	`identifiers` text,
	`affected_fields` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `job_logs_job_idx` ON `job_logs` (`job_id`,`id`);--> statement-breakpoint
CREATE INDEX `job_logs_job_severity_idx` ON `job_logs` (`job_id`,`severity`,`id`);--> statement-breakpoint
CREATE INDEX `job_logs_job_code_idx` ON `job_logs` (`job_id`,`code`,`id`);--> statement-breakpoint
CREATE INDEX `job_logs_job_created_idx` ON `job_logs` (`job_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`params` text NOT NULL,
	`payload_key` text,
	`chunk_count` integer DEFAULT 0 NOT NULL,
	`total_records` integer DEFAULT 0 NOT NULL,
	`processed_records` integer DEFAULT 0 NOT NULL,
	`succeeded_records` integer DEFAULT 0 NOT NULL,
	`failed_records` integer DEFAULT 0 NOT NULL,
	`log_info_count` integer DEFAULT 0 NOT NULL,
	`log_warning_count` integer DEFAULT 0 NOT NULL,
	`log_error_count` integer DEFAULT 0 NOT NULL,
	`api_key_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `jobs_created_idx` ON `jobs` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_status_idx` ON `jobs` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_type_idx` ON `jobs` (`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`last_used_at` text,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`api_key_id` integer NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`response_location` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`api_key_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY NOT NULL,
	`webhook_id` integer NOT NULL,
	`message_id` text NOT NULL,
	`event_type` text NOT NULL,
	`job_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`response_status` integer,
	`error` text,
	`duration_ms` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`next_retry_at` text,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text,
	`secret` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`disabled_at` text,
	`failing_since` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `store` (
	`id` integer PRIMARY KEY NOT NULL,
	`primary_locale` text NOT NULL,
	`enabled_locales` text NOT NULL,
	`applicable_countries` text NOT NULL,
	`return_policy_country` text,
	`return_days` integer,
	`return_method` text,
	`return_fees` text,
	`refund_type` text,
	`return_label_source` text,
	`item_condition` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `store_translations` (
	`locale` text PRIMARY KEY NOT NULL,
	`name` text,
	`domain` text,
	`orders_email_account` text,
	`contact_email_account` text,
	`promotions_email_account` text
);
