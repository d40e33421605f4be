import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { createApiKey } from "../support/factories/api-keys.ts";
import { unique } from "../support/unique.ts";

/**
 * Per-key budgets through the Workers rate-limiting binding (README "Rate limits"):
 * read 1,200, write 300 and bulk 30 requests per 60 s. The suite runs with ENVIRONMENT
 * "development", where limits are off; these tests call the app with RATE_LIMITS "on" and the real
 * READ_LIMITER / WRITE_LIMITER / BULK_LIMITER bindings configured in wrangler.toml, each with API
 * keys of their own, so no other test file ever meets a limit.
 */
const LIMITED = { ...env, RATE_LIMITS: "on" } as typeof env;

async function newKey(scopes = ["read", "write", "admin"]) {
  const secret = `sfk_${unique("rate").replace(/[^A-Za-z0-9]/g, "_")}`;
  await createApiKey(secret, { scopes });
  return secret;
}

interface Call {
  method?: string;
  path: string;
  body?: string;
  contentType?: string;
}

function call(secret: string | null, c: Call, bindings = LIMITED) {
  const headers: Record<string, string> = {};
  if (secret) headers.authorization = `Bearer ${secret}`;
  if (c.body !== undefined && c.contentType) headers["content-type"] = c.contentType;
  return api(c.path, { method: c.method, key: null, headers, body: c.body, bindings });
}

/** Sends `n` calls, `width` at a time; returns their statuses in order. */
async function burst(secret: string, c: Call, n: number, width = 25) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += width) {
    const wave = await Promise.all(
      Array.from({ length: Math.min(width, n - i) }, () => call(secret, c).then((r) => r.status)),
    );
    statuses.push(...wave);
  }
  return statuses;
}

/**
 * The binding counts in windows aligned to the wall clock: a run that straddles a window boundary
 * sees the budget refilled halfway, and its assertions fail for that reason only. Such a run is
 * repeated once (it then has a fresh window); a failure within one window is a real one.
 */
async function inOneWindow<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const window = Math.floor(Date.now() / 60_000);
    try {
      return await run();
    } catch (err) {
      if (attempt > 0 || Math.floor(Date.now() / 60_000) === window) throw err;
    }
  }
}

const READ: Call = { path: "/api/v1/store?nope=1" }; // 400 after the limiter: cheap to spend
const WRITE: Call = { method: "PATCH", path: "/api/v1/brands/999999", body: "{" };
const BULK: Call = { method: "POST", path: "/api/v1/variants/bulk", body: "{" };

function expect429(res: Awaited<ReturnType<typeof call>>, budget: string) {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(res.json).toMatchObject({
    status: 429,
    code: "rate_limited",
    type: "https://storefront.dev/problems/rate-limited",
    request_id: res.headers.get("x-request-id"),
  });
  expect(res.json.detail).toContain(budget);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("rate limits per API key (RATE_LIMITS on)", () => {
  it("allows 30 bulk requests a minute, then answers 429 with Retry-After; writes and reads go on", async () => {
    await inOneWindow(async () => {
      const secret = await newKey();
      const statuses = await burst(secret, BULK, 30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      expect429(await call(secret, BULK), "bulk");
      expect429(await call(secret, { ...BULK, path: "/api/v1/products/bulk" }), "bulk");
      expect((await call(secret, WRITE)).status).toBe(400);
      expect((await call(secret, READ)).status).toBe(400);
    });
  });

  it("allows 300 writes a minute, then answers 429 with Retry-After; bulk and reads go on", async () => {
    await inOneWindow(async () => {
      const secret = await newKey();
      const statuses = await burst(secret, WRITE, 300);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      expect429(await call(secret, WRITE), "write");
      expect429(await call(secret, { method: "POST", path: "/api/v1/suppliers", body: "{}" }), "write");
      expect((await call(secret, BULK)).status).toBe(400);
      expect((await call(secret, READ)).status).toBe(400);
    });
  });

  it("allows 1,200 reads a minute, then answers 429 with Retry-After; writes go on", async () => {
    await inOneWindow(async () => {
      const secret = await newKey();
      const statuses = await burst(secret, READ, 1200, 50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      expect429(await call(secret, READ), "read");
      expect429(await call(secret, { path: "/api/v1/brands" }), "read");
      expect((await call(secret, WRITE)).status).toBe(400);
    });
  }, 60_000);

  it("keeps the budgets of different API keys apart", async () => {
    await inOneWindow(async () => {
      const [a, b] = [await newKey(), await newKey()];
      await burst(a, BULK, 30);
      expect429(await call(a, BULK), "bulk");
      expect((await call(b, BULK)).status).toBe(400);
    });
  });

  it("answers 429 before 415, 413 and 400, and after 401 and 403 (the documented order of checks)", async () => {
    await inOneWindow(async () => {
      const secret = await newKey();
      await burst(secret, BULK, 30);
      expect429(await call(secret, { ...BULK, contentType: "text/plain" }), "bulk");
      expect429(
        await call(secret, { ...BULK, body: `{"variants":"${"x".repeat(11 * 1024 * 1024)}"}` }),
        "bulk",
      );
      expect((await call(null, BULK)).status).toBe(401);
      const readOnly = await newKey(["read"]);
      for (let i = 0; i < 31; i++) expect((await call(readOnly, BULK)).status).toBe(403);
    });
  });

  it("does not spend a budget on routes without a key (docs, OpenAPI, images)", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(null, { path: "/api/v1/openapi.json" })).status).toBe(200);
      expect((await call(null, { path: "/docs" })).status).toBe(200);
    }
  });

  it("is off in local development unless RATE_LIMITS is on (the default of the test suite)", async () => {
    // Through the worker's own environment: ENVIRONMENT development, RATE_LIMITS unset.
    const plain = await Promise.all(
      Array.from({ length: 35 }, () => api("/api/v1/variants/bulk", { method: "POST", body: "{" })),
    );
    expect(plain.filter((r) => r.status === 429)).toHaveLength(0);
    const secret = await newKey();
    const development = { ...env, RATE_LIMITS: undefined } as typeof env;
    for (let i = 0; i < 35; i++) expect((await call(secret, BULK, development)).status).toBe(400);
  });

  it("applies in production without the switch", async () => {
    await inOneWindow(async () => {
      const production = { ...env, ENVIRONMENT: "production" } as typeof env;
      const secret = await newKey();
      for (let i = 0; i < 30; i++) expect((await call(secret, BULK, production)).status).toBe(400);
      expect429(await call(secret, BULK, production), "bulk");
    });
  });
});
