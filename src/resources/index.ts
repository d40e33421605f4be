import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerBrands } from "./brands/brands.routes.ts";
import { registerCategories } from "./categories/categories.routes.ts";
import { registerProducts } from "./products/products.routes.ts";
import { registerStore } from "./store/store.routes.ts";
import { registerSuppliers } from "./suppliers/suppliers.routes.ts";

/** Mounts every resource's routes on the app. */
export function registerResources(app: OpenAPIHono<AppEnv>) {
  registerStore(app);
  registerBrands(app);
  registerCategories(app);
  registerSuppliers(app);
  registerProducts(app);
}
