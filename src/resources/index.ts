import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerSuppliers } from "./suppliers/suppliers.routes.ts";

/** Mounts every resource's routes on the app. */
export function registerResources(app: OpenAPIHono<AppEnv>) {
  registerSuppliers(app);
}
