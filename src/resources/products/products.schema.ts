import { z } from "@hono/zod-openapi";
import { pageTextsOut } from "../../conventions/page-texts.ts";
import { PRODUCT_STRUCTURES, PUBLICATION_STATUSES } from "../../db/schema/index.ts";
import { BrandSchema } from "../brands/brands.schema.ts";
import { CategorySchema } from "../categories/categories.schema.ts";
import { SupplierSchema } from "../suppliers/suppliers.schema.ts";
import { VariantSchema } from "../variants/variants.schema.ts";

const translationOut = z.object({
  name: z.string().nullable().optional(),
  slug: z.string().nullable().optional(),
  slug_base: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  ...pageTextsOut(),
});

export const ProductSchema = z
  .object({
    id: z.number().int(),
    internal_id: z.string().nullable().optional(),
    product_structure: z.enum(PRODUCT_STRUCTURES).optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    product_kind: z.string().optional(),
    model_code: z.string().nullable().optional(),
    tax_category: z.string().optional(),
    images: z
      .array(z.object({ id: z.number().int(), fullsize: z.string(), position: z.number().int() }))
      .optional(),
    variants_count: z.number().int().optional(),
    stock_management: z.string().optional(),
    online_availability: z.string().nullable().optional(),
    supplier_id: z.number().int().nullable().optional(),
    brand_id: z.number().int().nullable().optional(),
    category_ids: z
      .array(z.number().int())
      .optional()
      .openapi({ description: "The first is the main category." }),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    translations: z.record(z.string(), translationOut).optional(),
    supplier: SupplierSchema.nullable().optional().openapi({ description: "With `includes=supplier`." }),
    brand: BrandSchema.nullable().optional().openapi({ description: "With `includes=brand`." }),
    categories: z.array(CategorySchema).optional().openapi({ description: "With `includes=categories`." }),
    variants: z.array(VariantSchema).optional().openapi({ description: "With `includes=variants`." }),
  })
  .openapi("Product", {
    example: {
      id: 1,
      internal_id: "P-1",
      product_structure: "with-variants",
      status: "published",
      product_kind: "physical",
      model_code: "TS-2026",
      tax_category: "standard",
      images: [{ id: 1, fullsize: "https://cdn.example.com/p1.jpg", position: 0 }],
      variants_count: 3,
      translations: {
        "es-ES": {
          name: "Camiseta",
          slug: "camiseta",
          slug_base: "camiseta",
          url: "https://www.example-shop.es/camiseta",
        },
      },
    },
  });
