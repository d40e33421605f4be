import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { api } from "../support/api.ts";
import { BYPASS, cacheStatus, HIT, MISS, REQUEST } from "../support/edge.ts";
import { createApiKey } from "../support/factories/api-keys.ts";
import { unique } from "../support/unique.ts";

const createSupplier = async (name: string) => {
  const res = await api("/api/v1/suppliers", { method: "POST", body: { name, internal_id: unique("SUP") } });
  expect(res.status).toBe(201);
  return { id: res.json.id as number, bookmark: res.headers.get("x-d1-bookmark") as string };
};

/** A supplier whose answer is in the cache. */
async function cachedSupplier() {
  const { id } = await createSupplier(unique("Cached"));
  expect(cacheStatus(await api(`/api/v1/suppliers/${id}`))).toBe(MISS);
  expect(cacheStatus(await api(`/api/v1/suppliers/${id}`))).toBe(HIT);
  return id;
}

describe("bypass rules", () => {
  it("a request carrying x-d1-bookmark is answered without the cache (fwd=request), read-your-writes exact", async () => {
    const id = await cachedSupplier();
    const patched = await api(`/api/v1/suppliers/${id}`, { method: "PATCH", body: { name: "Renamed" } });
    const bookmark = patched.headers.get("x-d1-bookmark") as string;
    const res = await api(`/api/v1/suppliers/${id}`, { headers: { "x-d1-bookmark": bookmark } });
    expect(cacheStatus(res)).toBe(REQUEST);
    expect(res.json.name).toBe("Renamed");
    expect(res.headers.get("x-d1-bookmark")).toBeTruthy();
  });

  it("a request carrying Cache-Control: no-cache (or no-store) is answered without the cache (fwd=request)", async () => {
    const id = await cachedSupplier();
    for (const value of ["no-cache", "no-store", "max-age=0, no-cache"]) {
      const res = await api(`/api/v1/suppliers/${id}`, { headers: { "cache-control": value } });
      expect(cacheStatus(res), value).toBe(REQUEST);
    }
  });

  it("EDGE_CACHE=off answers every read without the cache (fwd=bypass)", async () => {
    const id = await cachedSupplier();
    const off = { ...env, EDGE_CACHE: "off" } as typeof env;
    const res = await api(`/api/v1/suppliers/${id}`, { bindings: off });
    expect(res.status).toBe(200);
    expect(cacheStatus(res)).toBe(BYPASS);
  });
});

describe("authentication, scopes and rate limits come before the cache", () => {
  it("a missing, unknown or revoked key gets 401 for a cached URL, never its body", async () => {
    const id = await cachedSupplier();
    const cases = [
      await api(`/api/v1/suppliers/${id}`, { key: null }),
      await api(`/api/v1/suppliers/${id}`, { key: null, headers: { authorization: "Bearer sfk_nope" } }),
      await api(`/api/v1/suppliers/${id}`, { key: "revoked" }),
    ];
    for (const res of cases) {
      expect(res.status).toBe(401);
      expect(res.json.code).toBe("unauthorized");
      expect(cacheStatus(res)).toBe(BYPASS);
    }
  });

  it("a key without the read scope gets 403 for a cached URL", async () => {
    const id = await cachedSupplier();
    const res = await api(`/api/v1/suppliers/${id}`, { key: "write" });
    expect(res.status).toBe(403);
    expect(cacheStatus(res)).toBe(BYPASS);
  });

  it("every key with the read scope shares one entry: the API key is not part of the key", async () => {
    const id = await cachedSupplier();
    const res = await api(`/api/v1/suppliers/${id}`, { key: "read" });
    expect(res.status).toBe(200);
    expect(cacheStatus(res)).toBe(HIT);
  });

  it("a key over its read budget gets 429 for a cached URL, not the cached body", async () => {
    const id = await cachedSupplier();
    const secret = `sfk_${unique("edge_rate").replace(/[^A-Za-z0-9]/g, "_")}`;
    await createApiKey(secret, { scopes: ["read"] });
    const limiter = { limit: vi.fn(async () => ({ success: false })) };
    const limited = { ...env, RATE_LIMITS: "on", READ_LIMITER: limiter } as unknown as typeof env;
    const res = await api(`/api/v1/suppliers/${id}`, {
      key: null,
      headers: { authorization: `Bearer ${secret}` },
      bindings: limited,
    });
    expect(res.status).toBe(429);
    expect(res.json.code).toBe("rate_limited");
    expect(limiter.limit).toHaveBeenCalledOnce();
  });
});
