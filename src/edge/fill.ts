import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../http/problem.ts";
import type { FillProps } from "./cache-key.ts";
import { lifetimeSeconds } from "./lifetime.ts";

/** The named entrypoint the gateway calls for a cached read (exported by src/index.ts). */
export const CACHED_READS = "CachedReads";

/**
 * A request header the gateway sends with a nonce that the answer echoes: a response carrying the
 * nonce of this very call was computed now (a miss); any other was served by the cache (a hit).
 * Workers Cache keys by props and URL, never by this header.
 */
export const FILL_HEADER = "x-storefront-fill";

/**
 * Whether this request is the gateway's call of the cached read entrypoint. Only the Worker itself
 * can set `ctx.props` (through `ctx.exports`); no request from the internet carries them.
 */
export function isFillCall(c: Context<AppEnv>): boolean {
  try {
    return (c.executionCtx.props as Partial<FillProps> | undefined)?.cache === "storefront";
  } catch {
    return false; // no execution context (`app.request` in unit tests)
  }
}

/** A middleware that runs for the gateway's clients only: the fill call was checked by the gateway. */
export const forClients =
  (middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    isFillCall(c) ? next() : middleware(c, next);

/**
 * Computes an answer for the cache, inside the cached read entrypoint: the route's usual handler,
 * then how long the answer may be kept (`public, max-age`, ending where its content would change
 * without a write; `no-store` for anything but 200, so no error is ever cached), and the nonce.
 * Only cacheable GET routes are served here, whatever calls it.
 */
export async function fill(c: Context<AppEnv>, next: Next): Promise<void> {
  if (c.req.method !== "GET" || !c.get("routeMeta").cache) {
    throw new ApiError("not_found", "Only cacheable reads are served by the cache's entrypoint");
  }
  c.set("cacheOutcome", "fill");
  await next();
  const seconds = c.res.status === 200 ? lifetimeSeconds(c, Date.now()) : 0;
  c.res.headers.set("Cache-Control", seconds > 0 ? `public, max-age=${seconds}` : "no-store");
  c.res.headers.set(FILL_HEADER, c.req.header(FILL_HEADER) ?? "");
}
