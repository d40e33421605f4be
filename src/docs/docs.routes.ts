import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { routeTable } from "../http/route-table.ts";

export const OPENAPI_PATH = "/api/v1/openapi.json";

export function registerDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "API key (`sfk_…`) with scopes `read` (every GET), `write` (catalog, pricing, reviews and bulk writes) and `admin` (webhooks).",
  });
  routeTable.add({ method: "GET", path: OPENAPI_PATH, scope: null, bodyLimit: "none", budget: null });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Storefront Catalog, Pricing and Orders API",
      version: "1.0.0",
      description:
        "JSON-over-HTTP API for a store's catalog, pricing, orders, reviews and bulk jobs. Errors are RFC 9457 problem JSON.",
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
}
