import { env } from "cloudflare:workers";
import "../../../src/app.ts";
import { type RouteMeta, routeTable } from "../../../src/http/route-table.ts";
import { type ApiResponse, send } from "../../support/api.ts";
import { checkAnswer } from "./oracle.ts";
import type { FuzzRequest } from "./request.ts";

/**
 * What the property-based fuzz suites (test/fuzz/*.test.ts) share to run: the routes under test
 * (from the route table, so a new route is fuzzed without touching the tests), how many cases,
 * and sending one generated request with the checks every answer must pass.
 */

/** Cases per route: `FUZZ_RUNS` (a binding set from the environment by vitest.config.ts), else 1,000. */
export function fuzzRuns(fallback = 1000): number {
  const raw = env.FUZZ_RUNS;
  const n = raw ? Number.parseInt(raw, 10) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

export const routes = (): RouteMeta[] => routeTable.all();

/** Sends one generated request (redirects not followed), counts its status in `statuses` and checks the answer (`checkAnswer`). */
export async function sendChecked(req: FuzzRequest, statuses: Map<number, number>): Promise<ApiResponse> {
  // The Worker's own answer: a redirect (`GET /`) is checked as a redirect, not followed.
  const init = { method: req.method, headers: req.headers, body: req.body, redirect: "manual" } as const;
  const res = await send(new Request(`https://api.test${req.url}`, init));
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  checkAnswer(req, res);
  return res;
}

/** The status counts of a route's cases, for the timing report. */
export const statusReport = (statuses: Map<number, number>) => JSON.stringify(Object.fromEntries(statuses));

/**
 * Client-supplied URLs (images, webhooks) must not leave the machine during fuzzing: every
 * outbound fetch to anything but 127.0.0.1 fails like an unreachable host.
 */
export function loopbackOnlyFetch(): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "127.0.0.1") return Promise.reject(new TypeError(`fuzz: no network to ${url.host}`));
    return original(input, init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}
