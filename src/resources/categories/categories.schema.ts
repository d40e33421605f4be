import { z } from "@hono/zod-openapi";
import { imageUrlIn, imageUrlOut } from "../../conventions/image-url.ts";
import { pageTextsIn, pageTextsOut } from "../../conventions/page-texts.ts";
import { translationsSchema } from "../../conventions/write/body-fields.ts";
import { internalIdText, nameText, positiveId, slugText } from "../../conventions/write/field-rules.ts";
import { PUBLICATION_STATUSES } from "../../db/schema/index.ts";

const translationOut = z.object({
  name: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  slug: z.string().nullable().optional(),
  ...pageTextsOut(),
});

const merchantCategoriesOut = z.record(z.string(), z.object({ id: z.string() }));

export const CategorySchema = z
  .object({
    id: z.number().int(),
    internal_id: z.string().nullable().optional(),
    parent_id: z.number().int().nullable().optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    image_url: imageUrlOut(),
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
  ...pageTextsIn(),
};

const merchantCategoryValue = z.object({ id: z.string().min(1).max(255) }).strict();

const common = {
  internal_id: internalIdText().nullable().optional(),
  image_url: imageUrlIn(),
  parent_id: positiveId().nullable().optional().openapi({ description: "null: top level." }),
};

export const CategoryCreateSchema = z
  .object({
    status: z.enum(PUBLICATION_STATUSES),
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
    status: z.enum(PUBLICATION_STATUSES).optional(),
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
