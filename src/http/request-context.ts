import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

/** Request id, security headers and Server-Timing (D1 round trips) on every response. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("requestId", crypto.randomUUID());
  c.set("dbStats", { roundTrips: 0 });
  const started = Date.now();
  await next();
  c.res.headers.set("X-Request-Id", c.get("requestId"));
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set(
    "Server-Timing",
    `app;dur=${Date.now() - started}, d1;desc="round trips";dur=${c.get("dbStats").roundTrips}`,
  );
};
