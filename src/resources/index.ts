import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerBrands } from "./brands/brands.routes.ts";
import { registerBulkRoutes } from "./bulk-operations.ts";
import { registerCategories } from "./categories/categories.routes.ts";
import { registerContacts } from "./contacts/contacts.routes.ts";
import { registerJobs } from "./jobs/jobs.routes.ts";
import { registerOrders } from "./orders/orders.routes.ts";
import { registerPriceLists } from "./price-lists/price-lists.routes.ts";
import { registerProducts } from "./products/products.routes.ts";
import { registerReviews } from "./reviews/reviews.routes.ts";
import { registerStore } from "./store/store.routes.ts";
import { registerSuppliers } from "./suppliers/suppliers.routes.ts";
import { registerWebhooks } from "./webhooks/webhooks.routes.ts";

/** Mounts every resource's routes on the app. */
export function registerResources(app: OpenAPIHono<AppEnv>) {
  registerStore(app);
  registerBrands(app);
  registerCategories(app);
  registerSuppliers(app);
  registerProducts(app);
  registerPriceLists(app);
  registerReviews(app);
  registerContacts(app);
  registerOrders(app);
  registerJobs(app);
  registerBulkRoutes(app);
  registerWebhooks(app);
}
