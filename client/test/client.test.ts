import assert from "node:assert/strict";
import { test } from "node:test";
import { createStorefrontClient } from "../src/index.ts";

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  at: number;
}

/** A fake fetch answering from a script, one answer per request, and remembering every request. */
function scriptedFetch(answers: Array<Response | Error | ((url: URL) => Response)>) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    seen.push({ method: request.method, url, headers: request.headers, at: performance.now() });
    await request.arrayBuffer();
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`no answer scripted for ${request.method} ${url}`);
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(url) : answer;
  };
  return { fetch, seen };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const problem = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ title: "busy", status }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });

const client = (fetch: (request: Request) => Promise<Response>) =>
  createStorefrontClient({
    baseUrl: "http://api.test",
    apiKey: "sfk_test",
    fetch,
    retry: { attempts: 4, baseDelayMs: 1 },
  });

test("a POST retried after a 503 and a network failure sends one Idempotency-Key throughout", async () => {
  const { fetch, seen } = scriptedFetch([problem(503), new TypeError("fetch failed"), json({ id: 7 }, 201)]);
  const { data, response } = await client(fetch).api.POST("/api/v1/brands", {
    body: { name: "Lumen", translations: {} },
  });
  assert.equal(response.status, 201);
  assert.equal(data?.id, 7);
  assert.equal(seen.length, 3);
  const keys = seen.map((request) => request.headers.get("idempotency-key"));
  assert.match(keys[0] ?? "", /^[0-9a-f-]{36}$/);
  assert.deepEqual(new Set(keys).size, 1);
  for (const request of seen) assert.equal(request.headers.get("authorization"), "Bearer sfk_test");
});

test("each logical POST gets its own key; a caller's key is kept", async () => {
  const { fetch, seen } = scriptedFetch([json({ id: 1 }, 201), json({ id: 2 }, 201), json({ id: 3 }, 201)]);
  const storefront = client(fetch);
  await storefront.api.POST("/api/v1/brands", { body: { name: "A", translations: {} } });
  await storefront.api.POST("/api/v1/brands", { body: { name: "B", translations: {} } });
  await storefront.api.POST("/api/v1/brands", {
    body: { name: "C", translations: {} },
    headers: { "Idempotency-Key": "mine" },
  });
  const keys = seen.map((request) => request.headers.get("idempotency-key"));
  assert.notEqual(keys[0], keys[1]);
  assert.equal(keys[2], "mine");
});

test("a 429 waits for its Retry-After before the retry; a GET gets no Idempotency-Key", async () => {
  const { fetch, seen } = scriptedFetch([problem(429, { "retry-after": "1" }), json({ id: 1 })]);
  const { response } = await client(fetch).api.GET("/api/v1/brands/{id}", { params: { path: { id: 1 } } });
  assert.equal(response.status, 200);
  const [first, second] = seen;
  assert.ok(first && second);
  assert.ok(second.at - first.at >= 950, `retried after ${second.at - first.at} ms`);
  assert.equal(second.headers.get("idempotency-key"), null);
});

test("the last attempt's answer is returned when every attempt fails", async () => {
  const { fetch, seen } = scriptedFetch([problem(502), problem(502), problem(502), problem(500)]);
  const { response, error } = await client(fetch).api.GET("/api/v1/store");
  assert.equal(seen.length, 4);
  assert.equal(response.status, 500);
  assert.deepEqual(error, { title: "busy", status: 500 });
});

test("a 4xx other than 429 is not retried", async () => {
  const { fetch, seen } = scriptedFetch([problem(422)]);
  const { response } = await client(fetch).api.POST("/api/v1/brands", {
    body: { name: "", translations: {} },
  });
  assert.equal(response.status, 422);
  assert.equal(seen.length, 1);
});

test("the newest x-d1-bookmark seen is sent on every later request", async () => {
  const newer = "00000010-00000001-00004f8d-aaaa";
  const older = "0000000f-00000001-00004f8d-bbbb";
  const { fetch, seen } = scriptedFetch([
    json({ id: 1 }, 201, { "x-d1-bookmark": newer }),
    json({ id: 1 }, 200, { "x-d1-bookmark": older }),
    json({ id: 1 }),
  ]);
  const storefront = client(fetch);
  await storefront.api.POST("/api/v1/brands", { body: { name: "A", translations: {} } });
  await storefront.api.GET("/api/v1/brands/{id}", { params: { path: { id: 1 } } });
  await storefront.api.GET("/api/v1/brands/{id}", { params: { path: { id: 1 } } });
  assert.deepEqual(
    seen.map((request) => request.headers.get("x-d1-bookmark")),
    [null, newer, newer],
  );
});

test("paginate yields every item of every page, following next_page_url", async () => {
  const page = (current: number, ids: number[], next?: number) =>
    json({
      pagination: {
        current_page: current,
        per_page: 2,
        total: 5,
        total_pages: 3,
        ...(next ? { next_page_url: `http://api.test/api/v1/brands?per_page=2&page=${next}` } : {}),
      },
      data: ids.map((id) => ({ id })),
    });
  const { fetch, seen } = scriptedFetch([page(1, [1, 2], 2), page(2, [3, 4], 3), page(3, [5])]);
  const ids: number[] = [];
  for await (const brand of client(fetch).paginate("/api/v1/brands", {
    params: { query: { per_page: 2 } },
  })) {
    ids.push(brand.id);
  }
  assert.deepEqual(ids, [1, 2, 3, 4, 5]);
  assert.deepEqual(
    seen.map((request) => [request.url.searchParams.get("page"), request.url.searchParams.get("per_page")]),
    [
      ["1", "2"],
      ["2", "2"],
      ["3", "2"],
    ],
  );
});

test("waitForJob polls until a final status, reporting each poll", async () => {
  const job = (status: string, processed: number) =>
    json({ id: "j1", status, summary: { total_records: 2, processed_records: processed } });
  const { fetch, seen } = scriptedFetch([job("pending", 0), job("running", 1), job("done_with_errors", 2)]);
  const progress: Array<[string | undefined, number | undefined]> = [];
  const final = await client(fetch).waitForJob("j1", {
    intervalMs: 1,
    onProgress: (polled) => progress.push([polled.status, polled.summary?.processed_records]),
  });
  assert.equal(final.status, "done_with_errors");
  assert.deepEqual(progress, [
    ["pending", 0],
    ["running", 1],
    ["done_with_errors", 2],
  ]);
  assert.equal(seen[0]?.url.pathname, "/api/v1/jobs/j1");
});

test("submitBulk passes the caller's Idempotency-Key and returns the accepted job", async () => {
  const { fetch, seen } = scriptedFetch([json([{ job_id: "j2", status: "pending" }], 202)]);
  const accepted = await client(fetch).submitBulk(
    "/api/v1/price-lists/{id}/variant-prices/bulk",
    { prices: [], options: { match_by: "variant_internal_id", mode: "upsert" } },
    { idempotencyKey: "part-1", params: { path: { id: 3 } } },
  );
  assert.deepEqual(accepted, { job_id: "j2", status: "pending" });
  assert.equal(seen[0]?.url.pathname, "/api/v1/price-lists/3/variant-prices/bulk");
  assert.equal(seen[0]?.headers.get("idempotency-key"), "part-1");
});

test("jobLogs pages through a job's log, filtered by severity", async () => {
  const { fetch, seen } = scriptedFetch([
    json({
      pagination: { current_page: 1, per_page: 500, total: 1, total_pages: 1 },
      data: [{ id: 1, severity: "ERROR", code: "NOT_FOUND" }],
    }),
  ]);
  const entries = [];
  for await (const entry of client(fetch).jobLogs("j3", { severity: "ERROR" })) entries.push(entry);
  assert.deepEqual(entries, [{ id: 1, severity: "ERROR", code: "NOT_FOUND" }]);
  assert.equal(seen[0]?.url.pathname, "/api/v1/jobs/j3/logs");
  assert.equal(seen[0]?.url.searchParams.get("severity"), "ERROR");
});

test("waitForJob stops when its signal aborts", async () => {
  const { fetch } = scriptedFetch([json({ id: "j4", status: "running" })]);
  const controller = new AbortController();
  const waiting = client(fetch).waitForJob("j4", {
    intervalMs: 60_000,
    signal: controller.signal,
    onProgress: () => controller.abort(new Error("stop")),
  });
  await assert.rejects(waiting, /stop/);
});

test("exportJob starts the export, follows its job and streams its file", async () => {
  const id = "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c";
  const job = (status: string, processed: number) =>
    json({
      id,
      type: "products_export",
      status,
      summary: { total_records: 2, processed_records: processed },
    });
  const { fetch, seen } = scriptedFetch([
    json([{ job_id: id, status: "pending" }], 202),
    job("running", 1),
    job("done", 2),
    new Response('{"id":1}\n{"id":2}\n', { headers: { "content-type": "application/x-ndjson" } }),
  ]);
  const progress: number[] = [];
  const file = await client(fetch).exportJob("products", {
    filters: { brand_ids: "1,2" },
    intervalMs: 1,
    onProgress: (j) => progress.push(j.summary?.processed_records ?? -1),
  });
  assert.equal(file.job.status, "done");
  assert.deepEqual(progress, [1, 2]);
  assert.equal(await new Response(file.body).text(), '{"id":1}\n{"id":2}\n');
  assert.deepEqual(
    seen.map((r) => `${r.method} ${r.url.pathname}`),
    [
      "POST /api/v1/products/export",
      `GET /api/v1/jobs/${id}`,
      `GET /api/v1/jobs/${id}`,
      `GET /api/v1/jobs/${id}/result`,
    ],
  );
});

test("changes follows next_cursor until the feed has nothing newer, reporting each cursor", async () => {
  const entry = (id: number, cursor: string) => ({
    cursor,
    resource: "products",
    id,
    internal_id: `P-${id}`,
    change: "upserted",
    changed_at: "2026-11-27T06:00:00Z",
  });
  const { fetch, seen } = scriptedFetch([
    json({ data: [entry(1, "c1"), entry(2, "c2")], next_cursor: "c2" }),
    json({ data: [entry(3, "c3")], next_cursor: "c3" }),
    json({ data: [], next_cursor: "c3" }),
  ]);
  const cursors: string[] = [];
  const ids: number[] = [];
  for await (const e of client(fetch).changes({
    after: "c0",
    resources: ["products"],
    perPage: 2,
    onCursor: (c) => cursors.push(c),
  }))
    ids.push(e.id);
  assert.deepEqual(ids, [1, 2, 3]);
  assert.deepEqual(cursors, ["c2", "c3", "c3"]);
  assert.deepEqual(
    seen.map((r) => `${r.url.pathname}?${r.url.searchParams}`),
    [
      "/api/v1/changes?after=c0&resources=products&per_page=2",
      "/api/v1/changes?after=c2&resources=products&per_page=2",
      "/api/v1/changes?after=c3&resources=products&per_page=2",
    ],
  );
});

test("changes throws StorefrontApiError 410 for an expired cursor", async () => {
  const { fetch } = scriptedFetch([
    json({ code: "cursor_expired", status: 410, title: "Cursor expired", detail: "old" }, 410),
  ]);
  const iterate = async () => {
    for await (const _ of client(fetch).changes({ after: "c0" })) {
      // nothing: the first page fails
    }
  };
  await assert.rejects(iterate, (err: { status?: number }) => err.status === 410);
});
