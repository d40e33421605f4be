import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, integer, text } from "drizzle-orm/sqlite-core";

/** UTC timestamp stored as ISO 8601 text with whole seconds and `Z`, so text order is time order. */
export const timestamp = <N extends string>(name: N) => text(name);

/** The statement's time in the stored form (a column default; the change feed's `changed_at`). */
export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

export const createdAt = () => timestamp("created_at").notNull().default(nowIso);
export const updatedAt = () => timestamp("updated_at").notNull().default(nowIso);

export const bool = <N extends string>(name: N) => integer(name, { mode: "boolean" });

/** The integer key of a table's rows. */
export const id = () => integer("id").primaryKey();

/** A required reference to another table's row. */
export const reference = <N extends string>(name: N, to: () => AnySQLiteColumn) =>
  integer(name).notNull().references(to);

/** The row this one belongs to (a translation, a line, a rule): required, and deleted with it. */
export const owner = <N extends string>(name: N, to: () => AnySQLiteColumn) =>
  integer(name).notNull().references(to, { onDelete: "cascade" });

/** The texts of a catalog page in one locale (brands, categories and products have them). */
export const pageTexts = () => ({
  description: text("description"),
  bodyHtml: text("body_html"),
  longName: text("long_name"),
  metaTitle: text("meta_title"),
  metaDescription: text("meta_description"),
});
