import { z } from "@hono/zod-openapi";
import { bulkTranslations } from "../../conventions/write/body-fields.ts";
import { nonEmpty, nonNegativeInt, positiveInt } from "../../conventions/write/field-rules.ts";
import {
  ONLINE_AVAILABILITIES,
  PRODUCT_KINDS,
  PRODUCT_STRUCTURES,
  PUBLICATION_STATUSES,
  STOCK_MANAGEMENT_MODES,
  TAX_CATEGORIES,
} from "../../db/schema/index.ts";
import { variantWriteShape } from "../variants/variants.bulk-fields.ts";

export const PRODUCT_MATCH_BY = ["id", "internal_id"] as const;

const httpsUrl = z
  .string()
  .max(2048)
  .url("must be a URL")
  .refine((u) => u.startsWith("https://"), "must be an https URL");

const NestedVariantRecord = z
  .object({ id: positiveInt().optional(), ...variantWriteShape })
  .strict()
  .openapi("ProductBulkVariant", {
    description:
      "Matched within the product by `id` or `internal_id`; unmatched entries without `id` are created (they need `sku`). Variants are never deleted by omission.",
  });

export const ProductUpsertRecord = z
  .object({
    id: positiveInt().optional(),
    internal_id: nonEmpty(100).nullable().optional(),
    product_structure: z.enum(PRODUCT_STRUCTURES).optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    product_kind: z.enum(PRODUCT_KINDS).optional(),
    stock_management: z.enum(STOCK_MANAGEMENT_MODES).optional(),
    online_availability: z.enum(ONLINE_AVAILABILITIES).nullable().optional(),
    model_code: nonEmpty(255).nullable().optional(),
    tax_category: z.enum(TAX_CATEGORIES).optional(),
    supplier_id: positiveInt().nullable().optional(),
    brand_id: positiveInt().nullable().optional(),
    category_ids: z
      .array(positiveInt())
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, "must not repeat a category")
      .optional()
      .openapi({ description: "Replaces the product's categories; the first is the main category." }),
    images: z
      .array(z.object({ url: httpsUrl, position: nonNegativeInt().optional() }).strict())
      .max(50)
      .optional()
      .openapi({
        description:
          "Replaces the images; renumbered 0..n by (position, array order). Stored as given, not downloaded.",
      }),
    variants: z.array(NestedVariantRecord).max(100).optional(),
    translations: bulkTranslations(
      z
        .object({
          name: nonEmpty(255).nullable().optional(),
          description: z.string().max(65_535).nullable().optional(),
          body_html: z.string().max(65_535).nullable().optional(),
          long_name: nonEmpty(255).nullable().optional(),
          meta_title: z.string().max(1000).nullable().optional(),
          meta_description: z.string().max(1000).nullable().optional(),
        })
        .strict(),
    ).optional(),
  })
  .strict()
  .openapi("ProductBulkRecord", {
    description:
      "The identifier named by `options.match_by` plus the fields to change. With `match_by: internal_id` an unmatched record creates a product (it needs a name in one locale and one variant).",
  });

export type ProductRecord = z.output<typeof ProductUpsertRecord>;
