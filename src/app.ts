import { OpenAPIHono } from "@hono/zod-openapi";
import { dbSession } from "./db/client.ts";
import { registerDocs } from "./docs/docs.routes.ts";
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
 * 401/403 → 429 → 415 → 413 → 400 (per route) → 404 / 409 / 422 (handlers).
 */
function createApp() {
  const app = new OpenAPIHono<AppEnv>({ strict: false });
  app.use("*", requestContext);
  app.use("*", routeGuard);
  app.use("*", authenticate);
  app.use("*", rateLimit);
  app.use("*", bodyGuard);
  app.use("*", dbSession);
  app.use("*", etag);
  registerResources(app);
  registerImages(app);
  registerHealth(app);
  registerDocs(app);
  app.onError(renderError);
  app.notFound((c) => renderError(new Error(`route table and router disagree on ${c.req.path}`), c));
  return app;
}

export const app = createApp();
