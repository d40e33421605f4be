import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BULK_BODY_LIMIT } from "../../src/http/body-guard.ts";
import type { RouteMeta } from "../../src/http/route-table.ts";
import { api } from "../support/api.ts";
import { jobCount } from "../support/jobs.ts";
import { bodyArb } from "./kit/bodies.ts";
import { existingIds, loadDemoSeed } from "./kit/data.ts";
import { fuzzRuns, loopbackOnlyFetch, routes, sendChecked, statusReport } from "./kit/driver.ts";
import { authHeaders } from "./kit/headers.ts";
import { type OpenApi, openApi, operationOf } from "./kit/openapi.ts";
import { describeRequest, type FuzzRequest } from "./kit/request.ts";
import { type BodyPools, urlPool } from "./kit/schema-values.ts";
import { fillPath, pathSegments } from "./kit/urls.ts";

/**
 * Property: for every bulk route, random bodies (schema-guided records, wrong top-level shapes,
 * broken JSON, deep nesting, payloads around the 10 MiB limit, wrong content types) and random
 * path ids never give a 5xx; every refusal is problem JSON and creates no job; and every job the
 * fuzzing got accepted (its records are random too) reaches a final state with a consistent
 * summary, with payload objects in R2 only for accepted jobs.
 */
const RUNS = fuzzRuns();
const BULK = routes().filter((r) => r.bodyLimit === "bulk");
const FINAL = new Set(["done", "done_with_errors", "failed"]);

let doc: OpenApi;
let pools: BodyPools;
let pathIds: string[];
let restoreFetch: () => void;
const accepted = new Set<string>();
const timings: string[] = [];

beforeAll(async () => {
  restoreFetch = loopbackOnlyFetch();
  await loadDemoSeed();
  doc = await openApi();
  const priceLists = await existingIds("price_lists", 3);
  const skus = await env.DB.prepare("SELECT sku AS v FROM variants LIMIT 3").all<{ v: string }>();
  const suppliers = await env.DB.prepare("SELECT internal_id AS v FROM suppliers LIMIT 2").all<{
    v: string;
  }>();
  pathIds = [...priceLists, "999999"];
  pools = {
    ids: [1, 2, 3, 5, 8, 40, 41, 120, 999_999],
    uniques: [...skus.results.map((r) => r.v), ...suppliers.results.map((r) => r.v), "P-FUZZ", "V-FUZZ"],
    urls: urlPool(inject("fixtureOrigin")),
  };
}, 60_000);

afterAll(() => {
  restoreFetch();
  console.log(`fuzz bulk (${RUNS} cases per route):\n  ${timings.join("\n  ")}`);
});

function requestArb(route: RouteMeta): fc.Arbitrary<FuzzRequest> {
  const schema = operationOf(doc, route)?.requestBody?.content?.["application/json"]?.schema;
  // Mostly refused at the top level: accepted jobs cost a consumer run each.
  const body = bodyArb(schema, { doc, pools, mutation: 3 }, BULK_BODY_LIMIT, 2);
  return fc.tuple(pathSegments(route, pathIds), authHeaders("POST"), body).map(([seg, headers, b]) => {
    const h = { ...headers };
    if (b.contentType) h["content-type"] = b.contentType;
    return { method: "POST", url: fillPath(route, seg), headers: h, body: b.text };
  });
}

/** Polls every accepted job until it is final (the real queue consumer runs in the background). */
async function settle(ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const open = new Set(ids);
  while (open.size > 0 && Date.now() < deadline) {
    const { results } = await env.DB.prepare(
      "SELECT id, status FROM jobs WHERE id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify([...open]))
      .all<{ id: string; status: string }>();
    for (const r of results) if (FINAL.has(r.status)) open.delete(r.id);
    if (open.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
  return [...open];
}

describe("fuzz: every bulk route", () => {
  it("covers every bulk route of the route table", () => {
    expect(BULK.length).toBeGreaterThanOrEqual(5);
  });

  for (const route of BULK) {
    it(`${route.method} ${route.path}`, async () => {
      const started = Date.now();
      const statuses = new Map<number, number>();
      const mine: string[] = [];
      await fc.assert(
        fc.asyncProperty(requestArb(route), async (req) => {
          const before = await jobCount();
          const res = await sendChecked(req, statuses);
          const after = await jobCount();
          if (res.status === 202) {
            const id = res.json?.[0]?.job_id;
            if (typeof id !== "string") throw new Error(`202 without a job id: ${res.text}`);
            if (res.headers.get("idempotency-replayed") !== "true") {
              mine.push(id);
              accepted.add(id);
            }
          } else if (after !== before) {
            throw new Error(
              `refused bulk request (${res.status}) created a job\n  request: ${describeRequest(req)}`,
            );
          }
        }),
        { numRuns: RUNS },
      );
      const fuzzMs = Date.now() - started;
      const unfinished = await settle(mine, 120_000);
      expect(unfinished, "jobs that never reached a final state").toEqual([]);
      for (const id of mine) {
        const job = (await api(`/api/v1/jobs/${id}`)).json;
        const s = job.summary;
        expect(s.processed_records, id).toBe(s.total_records);
        expect(s.succeeded_records + s.failed_records, id).toBe(s.processed_records);
        const status =
          s.succeeded_records === 0 ? "failed" : s.failed_records === 0 ? "done" : "done_with_errors";
        expect(job.status, id).toBe(status);
      }
      timings.push(
        `${route.path}: ${fuzzMs} ms fuzzing + ${Date.now() - started - fuzzMs} ms for ${mine.length} jobs to finish, statuses ${statusReport(statuses)}`,
      );
    }, 900_000);
  }

  it("keeps payload objects in R2 only for accepted jobs", async () => {
    let cursor: string | undefined;
    const strays: string[] = [];
    do {
      const page = await env.PAYLOADS.list({ cursor, limit: 1000 });
      for (const o of page.objects) {
        const id = /^jobs\/([^/]+)\//.exec(o.key)?.[1];
        if (!id || !accepted.has(id)) strays.push(o.key);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    expect(strays).toEqual([]);
  });
});
