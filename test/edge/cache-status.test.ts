import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { BYPASS, cacheStatus, HIT, MISS, REQUEST, stableHeaders } from "../support/edge.ts";
import { unique } from "../support/unique.ts";

const createBrand = async (name = unique("Cached brand")) => {
  const res = await api("/api/v1/brands", { method: "POST", body: { name, translations: {} } });
  expect(res.status).toBe(201);
  return res.json.id as number;
};

describe("Cache-Status and Cache-Control", () => {
  it("a catalog read is computed and stored first (fwd=miss), then served from the cache (hit)", async () => {
    const id = await createBrand();
    const first = await api(`/api/v1/brands/${id}`);
    const second = await api(`/api/v1/brands/${id}`);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(cacheStatus(first)).toBe(MISS);
    expect(cacheStatus(second)).toBe(HIT);
  });

  it("a cached answer is byte-identical to the computed one except Cache-Status, Age, Server-Timing, X-Request-Id and the bookmark", async () => {
    const id = await createBrand();
    const computed = await api(`/api/v1/brands/${id}?locales=es-ES,fr-FR`);
    const cached = await api(`/api/v1/brands/${id}?locales=es-ES,fr-FR`);
    const uncached = await api(`/api/v1/brands/${id}?locales=es-ES,fr-FR`, {
      headers: { "cache-control": "no-cache" },
    });
    expect(cacheStatus(cached)).toBe(HIT);
    expect(cacheStatus(uncached)).toBe(REQUEST);
    expect(cached.text).toBe(computed.text);
    expect(cached.text).toBe(uncached.text);
    expect(stableHeaders(cached)).toEqual(stableHeaders(computed));
    expect(stableHeaders(cached)).toEqual(stableHeaders(uncached));
    expect(cached.headers.get("x-request-id")).not.toBe(computed.headers.get("x-request-id"));
  });

  it("a hit carries Age and no bookmark; a miss carries the bookmark of the D1 reads it made", async () => {
    const id = await createBrand();
    const miss = await api(`/api/v1/brands/${id}`);
    const hit = await api(`/api/v1/brands/${id}`);
    expect(miss.headers.get("x-d1-bookmark")).toBeTruthy();
    expect(miss.headers.get("age")).toBeNull();
    expect(hit.headers.get("x-d1-bookmark")).toBeNull();
    expect(Number(hit.headers.get("age"))).toBeGreaterThanOrEqual(0);
  });

  it("a cacheable read says `private, no-cache` (hit, miss or bypass alike): clients revalidate with its ETag", async () => {
    const id = await createBrand();
    const miss = await api(`/api/v1/brands/${id}`);
    const hit = await api(`/api/v1/brands/${id}`);
    const bypass = await api(`/api/v1/brands/${id}`, { headers: { "cache-control": "no-cache" } });
    for (const res of [miss, hit, bypass]) expect(res.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("orders, contacts, jobs, webhooks and health are never cached: fwd=bypass and no-store, every time", async () => {
    for (const path of [
      "/api/v1/orders",
      "/api/v1/contacts?view=customers",
      "/api/v1/jobs",
      "/api/v1/webhooks",
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await api(path);
        expect(res.status, path).toBe(200);
        expect(cacheStatus(res), path).toBe(BYPASS);
        expect(res.headers.get("cache-control"), path).toBe("no-store");
      }
    }
    const health = await api("/api/v1/health", { key: null });
    expect(cacheStatus(health)).toBe(BYPASS);
    expect(health.headers.get("cache-control")).toBe("no-store");
  });

  it("an answer other than 200 is never stored: an unknown id is computed each time", async () => {
    const first = await api("/api/v1/brands/987654321");
    const second = await api("/api/v1/brands/987654321");
    expect([first.status, second.status]).toEqual([404, 404]);
    expect(cacheStatus(second)).toBe(MISS);
    expect(second.headers.get("cache-control")).toBe("no-store");
    // The problem names the request that computed it, as its X-Request-Id does.
    expect(second.json.request_id).toBe(second.headers.get("x-request-id"));
  });

  it("errors before the cache (unknown route, 405, 401, 400) say fwd=bypass and no-store", async () => {
    const cases = [
      await api("/api/v1/nothing-here", { key: null }),
      await api("/api/v1/brands", { method: "DELETE", key: null }),
      await api("/api/v1/brands", { key: null }),
      await api("/api/v1/jobs/not-a-job-id"),
    ];
    expect(cases.map((r) => r.status)).toEqual([404, 405, 401, 400]);
    for (const res of cases) {
      expect(cacheStatus(res)).toBe(BYPASS);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("a write's answer is not cached: fwd=bypass and no-store", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("Written"), translations: {} },
    });
    expect(res.status).toBe(201);
    expect(cacheStatus(res)).toBe(BYPASS);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("the OpenAPI document is an /api/v1 answer too: it says what the cache did", async () => {
    const res = await api("/api/v1/openapi.json", { key: null });
    expect(res.status).toBe(200);
    expect(cacheStatus(res)).toBe(BYPASS);
    expect(res.headers.get("cache-control")).toBeTruthy();
  });
});
