import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { log } from "../lib/log.ts";
import { PhaseClock } from "../lib/phase-clock.ts";

/**
 * Request id, security headers and Server-Timing (D1 round trips, then the time of each phase of the
 * request: src/lib/phase-clock.ts) on every response, and one structured log line per request: id,
 * method, route pattern (never the concrete path or query, which may carry personal data), status,
 * duration, D1 round trips and the API key's id.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("requestId", crypto.randomUUID());
  c.set("dbStats", { roundTrips: 0 });
  c.set("phases", new PhaseClock());
  const started = Date.now();
  await next();
  const durationMs = Date.now() - started;
  const roundTrips = c.get("dbStats").roundTrips;
  c.res.headers.set("X-Request-Id", c.get("requestId"));
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set(
    "Server-Timing",
    `app;dur=${durationMs}, d1;desc="round trips";dur=${roundTrips}, ${c.get("phases").serverTiming()}`,
  );
  log("info", "request", {
    request_id: c.get("requestId"),
    method: c.req.method,
    route: c.get("routeMeta")?.path ?? null,
    status: c.res.status,
    duration_ms: durationMs,
    d1_round_trips: roundTrips,
    api_key_id: c.get("apiKey")?.id ?? null,
  });
};
