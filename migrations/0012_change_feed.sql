CREATE TABLE `change_feed` (
	`seq` integer PRIMARY KEY NOT NULL,
	`resource` text NOT NULL,
	`entity_id` integer NOT NULL,
	`internal_id` text,
	`change` text NOT NULL,
	`changed_at` text NOT NULL
);
