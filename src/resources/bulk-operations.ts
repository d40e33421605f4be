import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountBulkOperations } from "../async/bulk/bulk.routes.ts";
import type { BulkOperations } from "../async/bulk/operation.ts";
import type { AppEnv } from "../env.ts";
import { variantPricesBulk } from "./price-lists/variant-prices.bulk.ts";
import { productsBulk } from "./products/products.bulk.ts";
import { linkIdentifiersBulk } from "./variants/link-identifiers.bulk.ts";
import { variantsBulk } from "./variants/variants.bulk.ts";

/**
 * Every bulk operation, by the job type it runs. Its routes mount in this order (the order of the
 * API document), and the jobs consumer runs each job with its operation's processor (src/queues.ts
 * hands it this registry).
 */
export const BULK_OPERATIONS: BulkOperations = {
  products_bulk_upsert: productsBulk,
  variants_bulk_update: variantsBulk,
  price_list_variant_prices_bulk_update: variantPricesBulk,
  identifiers_link: linkIdentifiersBulk,
};

export const registerBulkRoutes = (app: OpenAPIHono<AppEnv>) => mountBulkOperations(app, BULK_OPERATIONS);
