import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { log } from "../lib/log.ts";
import { PhaseClock } from "../lib/phase-clock.ts";

/**
 * Request id, security headers and Server-Timing (D1 round trips, rows read and written, then the time of
 * each phase of the request: src/lib/phase-clock.ts) on every response, and one structured log line
 * per request: id, method, route pattern (never the concrete path or query, which may carry personal
 * data), status, duration, D1 round trips, the API key's id and what the edge cache did (`hit`,
 * `miss`, `bypass`, `request`; also in Server-Timing as `cache`). The cached read entrypoint's own
 * computation logs no line: the gateway's line reports it, with its D1 work.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("requestId", crypto.randomUUID());
  c.set("dbStats", { roundTrips: 0, rowsRead: 0, rowsWritten: 0, generationReads: 0 });
  c.set("phases", new PhaseClock());
  const started = Date.now();
  await next();
  const durationMs = Date.now() - started;
  const { roundTrips, rowsRead, rowsWritten = 0, generationReads = 0 } = c.get("dbStats");
  const cache = c.get("cacheOutcome");
  const cacheTiming = cache
    ? `, cache;desc="${cache}"${generationReads > 0 ? `, cache-d1;desc="generation reads";dur=${generationReads}` : ""}`
    : "";
  c.res.headers.set("X-Request-Id", c.get("requestId"));
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set(
    "Server-Timing",
    `app;dur=${durationMs}, d1;desc="round trips";dur=${roundTrips}, d1-rows;desc="rows read";dur=${rowsRead}, d1-rows-written;desc="rows written";dur=${rowsWritten}, ${c.get("phases").serverTiming()}${cacheTiming}`,
  );
  if (cache === "fill") return;
  log("info", "request", {
    request_id: c.get("requestId"),
    method: c.req.method,
    route: c.get("routeMeta")?.path ?? null,
    status: c.res.status,
    duration_ms: durationMs,
    d1_round_trips: roundTrips,
    api_key_id: c.get("apiKey")?.id ?? null,
    cache: cache ?? null,
  });
};
