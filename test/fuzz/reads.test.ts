import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMeta } from "../../src/http/route-table.ts";
import { existingIds, loadDemoSeed } from "./kit/data.ts";
import { dbFingerprint } from "./kit/db-watch.ts";
import { fuzzRuns, loopbackOnlyFetch, routes, sendChecked, statusReport } from "./kit/driver.ts";
import { authHeaders } from "./kit/headers.ts";
import { type OpenApi, openApi, queryParams } from "./kit/openapi.ts";
import type { FuzzRequest } from "./kit/request.ts";
import { fillPath, pathSegments, queryString } from "./kit/urls.ts";

/**
 * Property: for every GET route (lists, single resources, the store, docs, images), adversarial
 * query strings and path ids never give a 5xx, every refusal is problem JSON listing the
 * problems, a list answer is a well-formed page, and reading changes nothing in the database.
 */
const RUNS = fuzzRuns();
const GETS = routes().filter((r) => r.method === "GET");

let doc: OpenApi;
let ids: Record<string, string[]>;
let restoreFetch: () => void;
const timings: string[] = [];

beforeAll(async () => {
  restoreFetch = loopbackOnlyFetch();
  await loadDemoSeed();
  doc = await openApi();
  const [numeric, jobs] = await Promise.all([existingIds("orders", 3), existingIds("jobs", 2)]);
  ids = {
    numeric: [...new Set([...numeric, "1", "2", "3", "5", "8", "12"])],
    jobs,
    images: [`${"0".repeat(64)}.png`, `${"a".repeat(64)}.jpg`, "x.png"],
  };
}, 60_000);

afterAll(() => {
  restoreFetch();
  console.log(`fuzz reads (${RUNS} cases per route):\n  ${timings.join("\n  ")}`);
});

function requestArb(route: RouteMeta): fc.Arbitrary<FuzzRequest> {
  const params = queryParams(doc, route);
  const pool = route.path.startsWith("/api/v1/jobs")
    ? (ids.jobs ?? [])
    : route.path.startsWith("/images")
      ? (ids.images ?? [])
      : (ids.numeric ?? []);
  return fc
    .tuple(
      pathSegments(route, pool),
      fc.option(queryString(params, ids.numeric ?? []), { freq: 8 }),
      authHeaders("GET"),
    )
    .map(([seg, query, headers]) => ({
      method: "GET",
      url: `${fillPath(route, seg)}${query === null ? "" : `?${query}`}`,
      headers,
    }));
}

const isList = (route: RouteMeta) => queryParams(doc, route).some((p) => p.name === "page");

describe("fuzz: every GET route", () => {
  it("covers every GET route of the route table", () => {
    expect(GETS.length).toBeGreaterThan(20);
  });

  for (const route of GETS) {
    it(`${route.method} ${route.path}`, async () => {
      const list = isList(route);
      const before = await dbFingerprint();
      const started = Date.now();
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArb(route), async (req) => {
          const res = await sendChecked(req, statuses);
          if (list && res.status === 200) {
            const { pagination, data } = res.json;
            if (!Array.isArray(data) || typeof pagination?.total !== "number")
              throw new Error(`200 list without {pagination, data}: ${req.url}`);
            if (data.length > pagination.per_page) throw new Error(`page longer than per_page: ${req.url}`);
          }
        }),
        { numRuns: RUNS },
      );
      expect([...(await dbFingerprint()).entries()]).toEqual([...before.entries()]);
      timings.push(`${route.path}: ${Date.now() - started} ms, statuses ${statusReport(statuses)}`);
    }, 600_000);
  }
});
