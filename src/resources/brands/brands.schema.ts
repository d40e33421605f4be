import { z } from "@hono/zod-openapi";
import { imageUrlIn, imageUrlOut } from "../../conventions/image-url.ts";
import { pageTextsIn, pageTextsOut } from "../../conventions/page-texts.ts";
import { translationsSchema } from "../../conventions/write/body-fields.ts";
import {
  internalIdText,
  nameText,
  slugText,
  smallNonNegativeInt,
} from "../../conventions/write/field-rules.ts";

const translationOut = z.object({
  url: z.string().nullable().optional(),
  ...pageTextsOut(),
  size_guide_file: z.object({ name: z.string() }).passthrough().nullable().optional(),
});

export const BrandSchema = z
  .object({
    id: z.number().int(),
    name: z.string().optional(),
    internal_id: z.string().nullable().optional(),
    slug: z.string().optional(),
    delivery_time_in_stock: z.number().int().nullable().optional(),
    delivery_time_out_of_stock: z.number().int().nullable().optional(),
    image_url: imageUrlOut(),
    translations: z.record(z.string(), translationOut).optional(),
  })
  .openapi("Brand", {
    example: {
      id: 1,
      name: "Acme",
      internal_id: "BR-1",
      translations: { "es-ES": { url: "https://www.example-shop.es/acme" } },
    },
  });

const sizeGuideFile = z.object({ name: nameText() }).passthrough();

const translationFields = {
  ...pageTextsIn(),
  size_guide_file: sizeGuideFile.nullable().optional(),
};

const common = {
  internal_id: internalIdText().nullable().optional(),
  slug: slugText().optional().openapi({ description: "Generated from the name when omitted; unique." }),
  delivery_time_in_stock: smallNonNegativeInt().nullable().optional(),
  delivery_time_out_of_stock: smallNonNegativeInt().nullable().optional(),
  image_url: imageUrlIn(),
};

export const BrandCreateSchema = z
  .object({
    name: nameText(),
    ...common,
    translations: translationsSchema(translationFields, { nullableLocales: false }),
  })
  .strict()
  .openapi("BrandCreate", {
    example: { name: "Acme", internal_id: "BR-1", translations: { "es-ES": { description: "Marca Acme" } } },
  });

export const BrandUpdateSchema = z
  .object({
    name: nameText().optional(),
    ...common,
    translations: translationsSchema(translationFields, { nullableLocales: true }).optional(),
  })
  .strict()
  .openapi("BrandUpdate", { example: { delivery_time_in_stock: 2 } });

export type BrandCreate = z.output<typeof BrandCreateSchema>;
export type BrandUpdate = z.output<typeof BrandUpdateSchema>;
