import { z } from "@hono/zod-openapi";
import type { BulkOperation } from "../../async/bulk/operation.ts";
import { productCategories, productImages } from "../../db/schema/index.ts";
import { variantWriteRelations } from "../variants/variants.bulk-fields.ts";
import { variantResource } from "../variants/variants.resource.ts";
import { productsUpsert } from "./products.bulk-processor.ts";
import { PRODUCT_MATCH_BY, ProductUpsertRecord } from "./products.bulk-record.ts";
import { productResource } from "./products.resource.ts";

export const productsBulk = {
  type: "products_bulk_upsert",
  routes: [{ path: "/api/v1/products/bulk", operationId: "bulkUpsertProducts", tag: "Products" }],
  summary: "Bulk upsert products (asynchronous)",
  description:
    "Creates or updates up to 10 MB of products with nested variants as a job (type `products_bulk_upsert`).",
  itemsKey: "products",
  options: z.object({ match_by: z.enum(PRODUCT_MATCH_BY) }),
  record: ProductUpsertRecord,
  writes: {
    resource: productResource,
    relations: {
      category_ids: productCategories,
      images: productImages,
      variants: { resource: variantResource, relations: variantWriteRelations },
    },
  },
  // Updates a demo product and one of its variants, and creates a new product with its variant.
  bodyExample: {
    products: [
      {
        internal_id: "PRD-000001",
        status: "published",
        category_ids: [4, 2],
        translations: { "en-GB": { name: "Organic cotton T-shirt Lumen" } },
        variants: [
          {
            internal_id: "VAR-0000001",
            warehouse_stock: 40,
            prices: { market_es: { offer_price: { amount: "14.95", currency: "EUR" } } },
          },
        ],
      },
      {
        internal_id: "PRD-000041",
        product_structure: "simple",
        status: "unpublished",
        model_code: "TSH-00041",
        tax_category: "standard",
        supplier_id: 4,
        brand_id: 2,
        category_ids: [4],
        translations: {
          "es-ES": { name: "Camiseta de lino Brisa" },
          "en-GB": { name: "Linen T-shirt Brisa" },
        },
        variants: [
          {
            internal_id: "VAR-0000161",
            sku: "TSH-00041-WHT",
            ean: "8400000001618",
            cost_price: { amount: "8.10", currency: "EUR" },
            prices: {
              market_es: { list_price: { amount: "19.95", currency: "EUR" } },
              market_en: { list_price: { amount: "17.99", currency: "GBP" } },
            },
            translations: { "es-ES": { name: "Blanco" }, "en-GB": { name: "White" } },
          },
        ],
      },
    ],
    options: { match_by: "internal_id" },
  },
  processor: productsUpsert,
  invalidates: ["products"],
} satisfies BulkOperation;
