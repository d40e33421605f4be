import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "./problem.ts";

const PERIOD_SECONDS = 60;

/** Per-key budgets through the Workers rate-limiting binding (read / write / bulk over 60 s). */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const budget = c.get("routeMeta").budget;
  if (!budget) return next();
  const enabled = c.env.ENVIRONMENT === "production" || c.env.RATE_LIMITS === "on";
  if (!enabled) return next();
  const limiter =
    budget === "bulk" ? c.env.BULK_LIMITER : budget === "write" ? c.env.WRITE_LIMITER : c.env.READ_LIMITER;
  if (limiter) {
    const { success } = await limiter.limit({ key: `${c.get("apiKey").id}:${budget}` });
    if (!success) {
      throw new ApiError("rate_limited", `Rate limit for ${budget} requests exceeded`, [], {
        "Retry-After": String(PERIOD_SECONDS),
      });
    }
  }
  await next();
};
