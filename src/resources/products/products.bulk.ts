import { z } from "@hono/zod-openapi";
import type { BulkOperation } from "../../async/bulk/operation.ts";
import { productsUpsert } from "./products.bulk-processor.ts";
import { PRODUCT_MATCH_BY, ProductUpsertRecord } from "./products.bulk-record.ts";

export const productsBulk = {
  type: "products_bulk_upsert",
  routes: [{ path: "/api/v1/products/bulk", operationId: "bulkUpsertProducts", tag: "Products" }],
  summary: "Bulk upsert products (asynchronous)",
  description:
    "Creates or updates up to 10 MB of products with nested variants as a job (type `products_bulk_upsert`).",
  itemsKey: "products",
  options: z.object({ match_by: z.enum(PRODUCT_MATCH_BY) }),
  record: ProductUpsertRecord,
  processor: productsUpsert,
} satisfies BulkOperation;
