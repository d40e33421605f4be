import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "./problem.ts";
import { routeTable } from "./route-table.ts";

/** 404 for unknown paths and 405 (with `Allow`) for known paths with another method, before auth. */
export const routeGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const match = routeTable.match(c.req.method, new URL(c.req.url).pathname);
  if (!match) throw new ApiError("not_found", `No route for ${new URL(c.req.url).pathname}`);
  if ("allow" in match) {
    throw new ApiError(
      "method_not_allowed",
      `${c.req.method} is not allowed here; allowed: ${match.allow.join(", ")}`,
      [],
      { Allow: match.allow.join(", ") },
    );
  }
  c.set("routeMeta", match.meta);
  await next();
};
