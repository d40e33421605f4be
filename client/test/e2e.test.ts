/**
 * The client against a real `npm run dev` (wrangler dev over a state directory of its own, demo
 * seed loaded, loopback only): a create read back, a list paged through, a bulk job followed to
 * its end with its logs, a POST whose answer is lost and retried without creating twice, and the
 * example run as an integrator would. Stops only the process group it started.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { type DevServer, startWranglerDev, stopProcessGroup } from "../../scripts/lib/dev-process.ts";
import { createStorefrontClient } from "../src/index.ts";

const KEY = "sfk_local_development_key";
const EXAMPLE = join(import.meta.dirname, "..", "examples", "quickstart.ts");
const state = mkdtempSync(join(tmpdir(), "storefront-client-e2e-"));
const run = Date.now().toString(36);
let dev: DevServer | undefined;

const origin = (): string => {
  assert.ok(dev, "wrangler dev is not running");
  return dev.origin;
};

before(async () => {
  dev = await startWranglerDev({
    viaDevScript: true,
    persistTo: join(state, "v3-state"),
    secret: KEY,
    logFile: join(state, "dev.log"),
    timeoutMs: 120_000,
  });
});

after(async () => {
  if (dev) await stopProcessGroup(dev.child);
  rmSync(state, { recursive: true, force: true });
});

test("a created brand is read back at once and found by paging through the list", async () => {
  const storefront = createStorefrontClient({ baseUrl: origin(), apiKey: KEY });
  const created = await storefront.api.POST("/api/v1/brands", {
    body: { name: `E2E brand ${run}`, internal_id: `E2E-${run}`, translations: {} },
  });
  assert.equal(created.response.status, 201);
  assert.ok(created.data);
  const read = await storefront.api.GET("/api/v1/brands/{id}", { params: { path: { id: created.data.id } } });
  assert.equal(read.data?.internal_id, `E2E-${run}`);
  assert.ok(read.response.headers.get("x-d1-bookmark"));

  const ids: number[] = [];
  for await (const brand of storefront.paginate("/api/v1/brands", { params: { query: { per_page: 2 } } })) {
    ids.push(brand.id);
  }
  const { data: firstPage } = await storefront.api.GET("/api/v1/brands", {
    params: { query: { per_page: 2 } },
  });
  assert.ok(firstPage && firstPage.pagination.total_pages > 1, "the seed has more than one page of brands");
  assert.equal(ids.length, firstPage.pagination.total);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.includes(created.data.id));
});

test("a bulk job is followed to its end and its error logged", async () => {
  const storefront = createStorefrontClient({ baseUrl: origin(), apiKey: KEY });
  const accepted = await storefront.submitBulk("/api/v1/products/bulk", {
    products: [
      {
        internal_id: `E2E-PRD-${run}-1`,
        translations: { "en-GB": { name: `E2E T-shirt ${run}` } },
        variants: [{ internal_id: `E2E-VAR-${run}-1`, sku: `E2E-${run}-1` }],
      },
      { internal_id: `E2E-PRD-${run}-2`, translations: { "en-GB": { name: `E2E no variant ${run}` } } },
    ],
    options: { match_by: "internal_id" },
  });
  assert.equal(accepted.status, "pending");
  const polled: string[] = [];
  const job = await storefront.waitForJob(accepted.job_id, {
    intervalMs: 200,
    onProgress: (progress) => polled.push(progress.status ?? "?"),
  });
  assert.equal(job.status, "done_with_errors");
  assert.equal(polled.at(-1), "done_with_errors");
  assert.deepEqual(
    { total: job.summary?.total_records, succeeded: job.summary?.succeeded_records },
    { total: 2, succeeded: 1 },
  );
  const errors = [];
  for await (const entry of storefront.jobLogs(accepted.job_id, { severity: "ERROR" })) errors.push(entry);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]?.code, "MISSING_REQUIRED_FIELD");
  assert.deepEqual(errors[0]?.identifiers, { product: { internal_id: `E2E-PRD-${run}-2` } });
  const { data: products } = await storefront.api.GET("/api/v1/products", {
    params: { query: { internal_ids: `E2E-PRD-${run}-1` } },
  });
  assert.equal(products?.data.length, 1);
});

test("a POST whose answer is lost is retried with its Idempotency-Key and creates once", async () => {
  let lost = 0;
  const loseFirstPostAnswer = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    if (request.method === "POST" && lost++ === 0) {
      await response.arrayBuffer();
      throw new TypeError("connection reset (simulated, after the service answered)");
    }
    return response;
  };
  const storefront = createStorefrontClient({
    baseUrl: origin(),
    apiKey: KEY,
    fetch: loseFirstPostAnswer,
    retry: { attempts: 3, baseDelayMs: 50 },
  });
  const slug = `e2e-retried-${run}`;
  const created = await storefront.api.POST("/api/v1/brands", {
    body: { name: `E2E retried ${run}`, slug, translations: {} },
  });
  assert.equal(lost, 2, "the POST was sent twice");
  assert.equal(created.response.status, 201);
  assert.equal(created.response.headers.get("idempotency-replayed"), "true");
  const { data } = await storefront.api.GET("/api/v1/brands", { params: { query: { slug } } });
  assert.deepEqual(
    data?.data.map((brand) => brand.id),
    [created.data?.id],
  );
});

test("the example (whose calls the README quotes) runs against the service, and a second run ends the same way", async () => {
  const example = async () =>
    (
      await promisify(execFile)(process.execPath, [EXAMPLE], {
        env: { ...process.env, STOREFRONT_BASE_URL: origin(), STOREFRONT_API_KEY: KEY },
        timeout: 60_000,
      })
    ).stdout;
  const first = await example();
  assert.match(first, /^created brand \d+$/m);
  assert.match(first, /^job \S+ finished done_with_errors: 1 failed$/m);
  assert.match(first, /^error \S+: /m);
  const second = await example();
  const brand = first.match(/^created brand (\d+)$/m)?.[1];
  assert.match(second, new RegExp(`^found brand ${brand}$`, "m"));
  // The first run created the product; the second lists it under the brand and updates it.
  assert.match(second, /^product \d+$/m);
  assert.match(second, /^job \S+ finished done_with_errors: 1 failed$/m);
});
