import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
import { HEALTH_PATH, PROBE_TIMEOUT_MS } from "../../src/health/health.routes.ts";
import { api } from "../support/api.ts";

/**
 * GET /api/v1/health: no key, no data; the deployed version and whether D1
 * and R2 answer; 200 when both do, 503 otherwise. Broken stores are simulated by calling the app
 * with a modified env.
 */

const failing = (what: string) => () => Promise.reject(new Error(`${what}: network connection lost`));

/** A D1 binding whose every query fails, as when the database cannot be reached. */
const brokenD1 = () => {
  const statement = { bind: () => statement, first: failing("D1_ERROR"), all: failing("D1_ERROR") };
  const session = { prepare: () => statement, getBookmark: () => null };
  return { prepare: () => statement, withSession: () => session } as unknown as D1Database;
};

/** An R2 binding whose every operation fails. */
const brokenR2 = () => ({ head: failing("R2"), get: failing("R2") }) as unknown as R2Bucket;

/** An R2 binding that never answers. */
const hangingR2 = () => ({ head: () => new Promise(() => {}) }) as unknown as R2Bucket;

const health = (bindings: typeof env = env, headers: Record<string, string> = {}) =>
  api(HEALTH_PATH, { key: null, headers, bindings });

describe("GET /api/v1/health", () => {
  it("answers 200 without an API key when D1 and R2 answer, with the version, the public origin and nothing else", async () => {
    const res = await api(HEALTH_PATH, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.json).toEqual({
      status: "ok",
      version: packageJson.version,
      public_origin: "https://api.test",
      checks: { d1: "ok", r2: "ok" },
    });
  });

  it("ignores an invalid API key (the route is public)", async () => {
    const res = await health(env, { authorization: "Bearer sfk_not_a_key" });
    expect(res.status).toBe(200);
  });

  it("answers 503 problem JSON naming D1 when the database does not answer, with the version and checks", async () => {
    const res = await health({ ...env, DB: brokenD1() } as typeof env);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json).toEqual({
      type: "https://storefront.dev/problems/service-unavailable",
      title: "Service unavailable",
      status: 503,
      detail: "D1 did not answer",
      code: "service_unavailable",
      request_id: res.headers.get("x-request-id"),
      version: packageJson.version,
      public_origin: "https://api.test",
      checks: { d1: "unavailable", r2: "ok" },
    });
  });

  it("answers 503 naming R2 when a bucket does not answer", async () => {
    const res = await health({ ...env, IMAGES: brokenR2() } as typeof env);
    expect(res.status).toBe(503);
    expect(res.json.detail).toBe("R2 did not answer");
    expect(res.json.checks).toEqual({ d1: "ok", r2: "unavailable" });
  });

  it("answers 503 naming both when neither store answers", async () => {
    const res = await health({ ...env, DB: brokenD1(), PAYLOADS: brokenR2() } as typeof env);
    expect(res.status).toBe(503);
    expect(res.json.detail).toBe("D1 and R2 did not answer");
    expect(res.json.checks).toEqual({ d1: "unavailable", r2: "unavailable" });
  });

  it(
    "counts a store that never answers as unavailable once the probe times out",
    async () => {
      const res = await health({ ...env, PAYLOADS: hangingR2() } as typeof env);
      expect(res.status).toBe(503);
      expect(res.json.checks).toEqual({ d1: "ok", r2: "unavailable" });
    },
    PROBE_TIMEOUT_MS + 10_000,
  );

  it("is never cached, healthy or not", async () => {
    expect((await health()).headers.get("cache-control")).toBe("no-store");
    const down = await health({ ...env, DB: brokenD1() } as typeof env);
    expect(down.headers.get("cache-control")).toBe("no-store");
  });

  it("is in the OpenAPI document as a public operation with its 200 and its 503 problem", async () => {
    const doc = (await api("/api/v1/openapi.json", { key: null })).json;
    const op = doc.paths[HEALTH_PATH].get;
    expect(op.security).toEqual([]);
    expect(op.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Health",
    });
    expect(op.responses["503"]).toEqual({ $ref: "#/components/responses/ServiceUnavailable" });
  });
});

describe("one version", () => {
  it("package.json, the OpenAPI info.version and the health route report the same version", async () => {
    const doc = (await api("/api/v1/openapi.json", { key: null })).json;
    const reported = (await health()).json.version;
    expect(doc.info.version).toBe(packageJson.version);
    expect(reported).toBe(packageJson.version);
  });
});
