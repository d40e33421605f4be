import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { describeError, isUniqueViolation } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { ApiError } from "./problem.ts";

/** Renders any thrown error as problem JSON; unexpected ones become a 500 that leaks nothing. */
export function renderError(err: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else if (isUniqueViolation(err)) {
    apiError = new ApiError("conflict", "The write conflicts with an existing record (uniqueness rule)");
  } else {
    log("error", "request.failed", { request_id: requestId, error: describeError(err) });
    apiError = new ApiError(
      "internal",
      "An unexpected error occurred; quote the request_id when reporting it",
    );
  }
  return new Response(JSON.stringify(apiError.toProblem(requestId)), {
    status: apiError.status,
    headers: {
      "Content-Type": "application/problem+json",
      "X-Request-Id": requestId,
      ...apiError.headers,
    },
  });
}
