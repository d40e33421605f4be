import type { ApiResponse } from "../../support/api.ts";
import { describeRequest, type FuzzRequest } from "./request.ts";

const LOCATIONS = new Set(["query", "path", "body", "header"]);

/**
 * Never a 5xx; every 4xx is problem JSON with `code` and the request id (and for a 400, the list
 * of problems); every answer carries nosniff and no framework banner; 2xx answers are JSON; a
 * redirect names its Location.
 */
export function checkAnswer(req: FuzzRequest, res: ApiResponse): void {
  const fail = (why: string) => {
    throw new Error(
      `${why}\n  request: ${describeRequest(req)}\n  answer ${res.status}: ${res.text.slice(0, 500)}`,
    );
  };
  if (res.status >= 500) fail(`5xx answer`);
  if (res.headers.get("x-content-type-options") !== "nosniff") fail("no X-Content-Type-Options: nosniff");
  if (res.headers.has("x-powered-by")) fail("X-Powered-By header");
  const requestId = res.headers.get("x-request-id");
  if (!requestId) fail("no X-Request-Id");
  if (res.status >= 400) {
    if (res.headers.get("content-type") !== "application/problem+json") fail("4xx without problem JSON");
    const p = res.json;
    if (!p || typeof p !== "object") fail("4xx body is not a JSON object");
    if (typeof p.code !== "string" || p.code === "") fail("problem without code");
    if (p.status !== res.status) fail("problem status differs from the HTTP status");
    if (p.request_id !== requestId) fail("problem request_id differs from X-Request-Id");
    if (typeof p.type !== "string" || typeof p.title !== "string" || typeof p.detail !== "string")
      fail("problem without type/title/detail");
    if (res.status === 400 && (!Array.isArray(p.errors) || p.errors.length === 0))
      fail("400 without a non-empty errors list");
    for (const e of p.errors ?? []) {
      if (!LOCATIONS.has(e?.location) || typeof e.path !== "string" || typeof e.message !== "string")
        fail(`malformed errors entry ${JSON.stringify(e)}`);
    }
    if (res.status === 405 && !res.headers.get("allow")) fail("405 without Allow");
    if (res.status === 401 && !res.headers.get("www-authenticate")) fail("401 without WWW-Authenticate");
    if ((res.status === 429 || p.code === "rate_limited") && !res.headers.get("retry-after"))
      fail("429 without Retry-After");
    return;
  }
  if (res.status === 204 || res.status === 304) return;
  if (res.status >= 300 && res.status < 400) {
    if (!res.headers.get("location")) fail("redirect without Location");
    return;
  }
  if (!(res.headers.get("content-type") ?? "").includes("json") && !req.url.startsWith("/docs"))
    fail("2xx answer that is not JSON");
  if (res.json === undefined && !req.url.startsWith("/docs")) fail("2xx answer whose body does not parse");
}
