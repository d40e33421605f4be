import type { MiddlewareHandler } from "hono";
import type { AppEnv, CacheOutcome } from "../env.ts";
import { isFillCall } from "./fill.ts";

/** The cache's name in `Cache-Status` (RFC 9211). */
const CACHE_NAME = "storefront";

const CACHE_STATUS: Record<Exclude<CacheOutcome, "fill">, string> = {
  hit: `${CACHE_NAME}; hit`,
  miss: `${CACHE_NAME}; fwd=miss`,
  bypass: `${CACHE_NAME}; fwd=bypass`,
  request: `${CACHE_NAME}; fwd=request`,
};

/**
 * What a client may do with a cacheable read: keep it, but ask again before using it (`no-cache`),
 * which a matching `ETag` answers with 304. So no client reuses an answer past the service's own
 * freshness bound, and a hit, a miss and a bypass say the same.
 */
const CACHEABLE = "private, no-cache";

/**
 * Every `/api/v1` answer says what the cache did (`Cache-Status`) and what others may do
 * (`Cache-Control`): cacheable reads `private, no-cache`; everything else (orders, contacts, jobs,
 * webhooks, health, writes, every error) `no-store`, unless the route set its own.
 */
export const edgeHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (isFillCall(c)) {
    // What the entrypoint refuses is no-store too: Workers Cache would keep an answer without
    // Cache-Control by heuristic (a 404 for 3 minutes).
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
    return;
  }
  if (!c.req.path.startsWith("/api/v1/")) return;
  const outcome = c.get("cacheOutcome") ?? "bypass";
  c.set("cacheOutcome", outcome);
  const readable = c.get("routeMeta")?.cache && (c.res.status === 200 || c.res.status === 304);
  if (readable) {
    c.res.headers.set("Cache-Control", CACHEABLE);
    // A hit may be sent gzip-compressed (src/edge/memory-cache.ts; Cloudflare's edge, deployed).
    c.res.headers.set("Vary", "Accept-Encoding");
  } else if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  c.res.headers.set("Cache-Status", CACHE_STATUS[outcome === "fill" ? "bypass" : outcome]);
};
