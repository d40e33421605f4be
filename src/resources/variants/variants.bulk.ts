import { z } from "@hono/zod-openapi";
import type { BulkOperation } from "../../async/bulk/operation.ts";
import { suppliers } from "../../db/schema/index.ts";
import { variantWriteRelations } from "./variants.bulk-fields.ts";
import { VARIANT_MATCH_BY } from "./variants.bulk-match.ts";
import { VariantUpdateRecord, variantsUpdate } from "./variants.bulk-processor.ts";
import { variantResource } from "./variants.resource.ts";

export const variantsBulk = {
  type: "variants_bulk_update",
  routes: [{ path: "/api/v1/variants/bulk", operationId: "bulkUpdateVariants", tag: "Variants" }],
  summary: "Bulk update variants (asynchronous)",
  description:
    "Updates existing variants as a job (type `variants_bulk_update`); variants are created through the products bulk upsert.",
  itemsKey: "variants",
  options: z.object({ match_by: z.enum(VARIANT_MATCH_BY) }),
  record: VariantUpdateRecord,
  writes: {
    resource: variantResource,
    relations: { ...variantWriteRelations, supplier_internal_id: suppliers },
  },
  // Stock and prices of two demo variants.
  bodyExample: {
    variants: [
      {
        internal_id: "VAR-0000009",
        supplier_stock: 380,
        warehouse_stock: 12,
        prices: { market_de: { list_price: { amount: "129.00", currency: "EUR" }, offer_price: null } },
      },
      { internal_id: "VAR-0000010", status: "unpublished", warehouse_stock: 0 },
    ],
    options: { match_by: "internal_id" },
  },
  processor: variantsUpdate,
  invalidates: ["products"],
} satisfies BulkOperation;
