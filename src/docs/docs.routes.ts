import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerOpenApiComponents } from "../http/openapi-shared.ts";
import { routeTable } from "../http/route-table.ts";
import { OPENAPI_PATH, openApiDocument } from "./document.ts";
import { DOCS_CSP, DOCS_HTML, DOCS_PATH } from "./page.ts";

export { OPENAPI_PATH } from "./document.ts";
export { DOCS_PATH, SCALAR_SCRIPT_PATH } from "./page.ts";

/**
 * The OpenAPI document and the interactive reference, both public, and `/`, which redirects to the
 * reference (a browser pointed at the service's origin lands on it). The reference's script is a
 * Workers static asset, answered before the Worker runs.
 */
export function registerDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "API key (`sfk_…`) with scopes `read` (every GET), `write` (catalog, pricing, reviews and bulk writes) and `admin` (webhooks).",
  });
  registerOpenApiComponents(app.openAPIRegistry);

  routeTable.add({ method: "GET", path: OPENAPI_PATH, scope: null, bodyLimit: "none", budget: null });
  app.get(OPENAPI_PATH, (c) => c.json(openApiDocument(app, new URL(c.req.url).origin)));

  routeTable.add({ method: "GET", path: "/", scope: null, bodyLimit: "none", budget: null });
  app.get("/", (c) => c.redirect(DOCS_PATH, 302));

  routeTable.add({ method: "GET", path: DOCS_PATH, scope: null, bodyLimit: "none", budget: null });
  app.get(DOCS_PATH, (c) =>
    c.html(DOCS_HTML, 200, {
      "Content-Security-Policy": DOCS_CSP,
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-cache",
    }),
  );
}
