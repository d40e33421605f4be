import { z } from "@hono/zod-openapi";
import {
  internalIdText,
  longText,
  metaText,
  nameText,
  positiveId,
  slugText,
  translationsSchema,
  urlText,
} from "../../conventions/write/body-fields.ts";

export const CATEGORY_STATUSES = ["published", "unpublished"] as const;

const translationOut = z.object({
  name: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  slug: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  body_html: z.string().nullable().optional(),
  long_name: z.string().nullable().optional(),
  meta_title: z.string().nullable().optional(),
  meta_description: z.string().nullable().optional(),
});

const merchantCategoriesOut = z.record(z.string(), z.object({ id: z.string() }));

export const CategorySchema = z
  .object({
    id: z.number().int(),
    internal_id: z.string().nullable().optional(),
    parent_id: z.number().int().nullable().optional(),
    status: z.enum(CATEGORY_STATUSES).optional(),
    image_url: z.string().nullable().optional().openapi({
      description:
        "The stored copy, served at `<public origin>/images/<sha256>.<ext>` (no authentication). The public origin is the configured `PUBLIC_BASE_URL`, or the origin the request reached when none is configured; it never comes from the image's source.",
    }),
    merchant_categories: merchantCategoriesOut.optional(),
    translations: z.record(z.string(), translationOut).optional(),
  })
  .openapi("Category", {
    example: {
      id: 3,
      internal_id: "CAT-3",
      translations: { "es-ES": { name: "Zapatillas", url: "https://www.example-shop.es/zapatillas" } },
    },
  });

const translationFields = {
  name: nameText().nullable().optional(),
  slug: slugText().optional().openapi({
    description: "Generated from the name when omitted; unique per locale; never changes on rename.",
  }),
  description: longText().nullable().optional(),
  body_html: longText().nullable().optional(),
  long_name: nameText().nullable().optional(),
  meta_title: metaText().nullable().optional(),
  meta_description: metaText().nullable().optional(),
};

const merchantCategoryValue = z.object({ id: z.string().min(1).max(255) }).strict();

const common = {
  internal_id: internalIdText().nullable().optional(),
  image_url: urlText().nullable().optional().openapi({
    description:
      "Downloaded (5 s timeout, at most 5 MiB, png/jpeg/webp/gif/avif) into the service's storage; the response shows the stored copy at `<public origin>/images/<sha256>.<ext>`. Sending that URL back (our own `/images/` URL of a stored image) keeps or reuses the stored copy without a download; any other URL, including one on our `/images/` path whose image is not stored, is downloaded.",
  }),
  parent_id: positiveId().nullable().optional().openapi({ description: "null: top level." }),
};

export const CategoryCreateSchema = z
  .object({
    status: z.enum(CATEGORY_STATUSES),
    translations: translationsSchema(translationFields, { nullableLocales: false }),
    ...common,
    merchant_categories: z.record(z.string().min(1).max(100), merchantCategoryValue).optional(),
  })
  .strict()
  .openapi("CategoryCreate", {
    example: { status: "published", parent_id: 1, translations: { "es-ES": { name: "Zapatillas" } } },
  });

export const CategoryUpdateSchema = z
  .object({
    status: z.enum(CATEGORY_STATUSES).optional(),
    translations: translationsSchema(translationFields, { nullableLocales: true }).optional(),
    ...common,
    merchant_categories: z
      .record(z.string().min(1).max(100), merchantCategoryValue.nullable())
      .optional()
      .openapi({ description: "Merged key by key; a null value removes that taxonomy." }),
  })
  .strict()
  .openapi("CategoryUpdate", { example: { parent_id: null } });

export type CategoryCreate = z.output<typeof CategoryCreateSchema>;
export type CategoryUpdate = z.output<typeof CategoryUpdateSchema>;
