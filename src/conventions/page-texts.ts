import { z } from "@hono/zod-openapi";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { translatedColumn } from "./translated-column.ts";
import { longText, metaText, nameText } from "./write/field-rules.ts";

/**
 * The texts of a catalog page in one locale, which brands, categories and products all translate:
 * as rendered, as written, and as the translated fields of a declaration.
 */
export const pageTextsOut = () => ({
  description: z.string().nullable().optional(),
  body_html: z.string().nullable().optional(),
  long_name: z.string().nullable().optional(),
  meta_title: z.string().nullable().optional(),
  meta_description: z.string().nullable().optional(),
});

export const pageTextsIn = () => ({
  description: longText().nullable().optional(),
  body_html: longText().nullable().optional(),
  long_name: nameText().nullable().optional(),
  meta_title: metaText().nullable().optional(),
  meta_description: metaText().nullable().optional(),
});

interface PageTextColumns {
  description: SQLiteColumn;
  bodyHtml: SQLiteColumn;
  longName: SQLiteColumn;
  metaTitle: SQLiteColumn;
  metaDescription: SQLiteColumn;
}

// Each column's type is passed on: inferred, it would widen to SQLiteColumn and render `unknown`.
export const pageTextFields = <T extends PageTextColumns>(translations: T) => ({
  description: translatedColumn<T["description"]>(translations.description),
  body_html: translatedColumn<T["bodyHtml"]>(translations.bodyHtml),
  long_name: translatedColumn<T["longName"]>(translations.longName),
  meta_title: translatedColumn<T["metaTitle"]>(translations.metaTitle),
  meta_description: translatedColumn<T["metaDescription"]>(translations.metaDescription),
});
