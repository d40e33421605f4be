import { OpenAPIHono } from "@hono/zod-openapi";
import { registerChanges } from "./changes/changes.routes.ts";
import { dbSession } from "./db/client.ts";
import { registerDocs } from "./docs/docs.routes.ts";
import { forClients } from "./edge/fill.ts";
import { edgeCache } from "./edge/gateway.ts";
import { edgeHeaders } from "./edge/headers.ts";
import type { AppEnv } from "./env.ts";
import { registerHealth } from "./health/health.routes.ts";
import { authenticate } from "./http/auth.ts";
import { bodyGuard } from "./http/body-guard.ts";
import { renderError } from "./http/errors.ts";
import { etag } from "./http/etag.ts";
import { rateLimit } from "./http/rate-limit.ts";
import { requestContext } from "./http/request-context.ts";
import { routeGuard } from "./http/route-guard.ts";
import { registerImages } from "./images/index.ts";
import { registerResources } from "./resources/index.ts";

/**
 * The HTTP app. Middleware order follows the documented order of checks: route match (404/405) →
 * 401/403 → 429 → 415 → 413 → 400 (per route) → 404 / 409 / 422 (handlers). The edge cache
 * (src/edge/) answers cacheable reads after the rate limit; the cached read entrypoint runs this
 * same app for the gateway, without the key checks the gateway already made.
 */
function createApp() {
  const app = new OpenAPIHono<AppEnv>({ strict: false });
  app.use("*", requestContext);
  app.use("*", edgeHeaders);
  app.use("*", routeGuard);
  app.use("*", forClients(authenticate));
  app.use("*", forClients(rateLimit));
  app.use("*", edgeCache);
  app.use("*", bodyGuard);
  app.use("*", dbSession);
  app.use("*", etag);
  registerResources(app);
  registerChanges(app);
  registerImages(app);
  registerHealth(app);
  registerDocs(app);
  app.onError(renderError);
  app.notFound((c) => renderError(new Error(`route table and router disagree on ${c.req.path}`), c));
  return app;
}

export const app = createApp();
