import { z } from "@hono/zod-openapi";
import {
  internalIdText,
  longText,
  metaText,
  nameText,
  nonNegativeInt,
  slugText,
  translationsSchema,
  urlText,
} from "../../conventions/write/body-fields.ts";

const translationOut = z.object({
  url: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  body_html: z.string().nullable().optional(),
  long_name: z.string().nullable().optional(),
  meta_title: z.string().nullable().optional(),
  meta_description: z.string().nullable().optional(),
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
    image_url: z.string().nullable().optional().openapi({
      description:
        "The stored copy, served at `<public origin>/images/<sha256>.<ext>` (no authentication). The public origin is the configured `PUBLIC_BASE_URL`, or the origin the request reached when none is configured; it never comes from the image's source.",
    }),
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
  description: longText().nullable().optional(),
  body_html: longText().nullable().optional(),
  long_name: nameText().nullable().optional(),
  meta_title: metaText().nullable().optional(),
  meta_description: metaText().nullable().optional(),
  size_guide_file: sizeGuideFile.nullable().optional(),
};

const common = {
  internal_id: internalIdText().nullable().optional(),
  slug: slugText().optional().openapi({ description: "Generated from the name when omitted; unique." }),
  delivery_time_in_stock: nonNegativeInt().nullable().optional(),
  delivery_time_out_of_stock: nonNegativeInt().nullable().optional(),
  image_url: urlText().nullable().optional().openapi({
    description:
      "Downloaded (5 s timeout, at most 5 MiB, png/jpeg/webp/gif/avif) into the service's storage; the response shows the stored copy at `<public origin>/images/<sha256>.<ext>`. Sending that URL back (our own `/images/` URL of a stored image) keeps or reuses the stored copy without a download; any other URL, including one on our `/images/` path whose image is not stored, is downloaded.",
  }),
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
