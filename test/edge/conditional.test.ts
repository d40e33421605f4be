import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { cacheStatus, HIT, MISS, stableHeaders } from "../support/edge.ts";
import { unique } from "../support/unique.ts";

async function cachedCategory() {
  const res = await api("/api/v1/categories", {
    method: "POST",
    body: { status: "published", translations: { "es-ES": { name: unique("Cat") } } },
  });
  expect(res.status).toBe(201);
  const path = `/api/v1/categories/${res.json.id}`;
  const miss = await api(path);
  expect(cacheStatus(miss)).toBe(MISS);
  return { path, miss };
}

describe("ETag, If-None-Match and HEAD through the cache", () => {
  it("If-None-Match with the ETag of a cached answer gives 304 without a body on a hit", async () => {
    const { path, miss } = await cachedCategory();
    const tag = miss.headers.get("etag") as string;
    expect(tag).toMatch(/^W\/"/);
    const res = await api(path, { headers: { "if-none-match": tag } });
    expect(res.status).toBe(304);
    expect(cacheStatus(res)).toBe(HIT);
    expect(res.text).toBe("");
    expect(res.headers.get("etag")).toBe(tag);
    expect(res.headers.get("content-type")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("a hit carries the ETag of the computed answer; a tag that does not match gets the whole answer", async () => {
    const { path, miss } = await cachedCategory();
    const hit = await api(path, { headers: { "if-none-match": 'W/"something-else"' } });
    expect(hit.status).toBe(200);
    expect(cacheStatus(hit)).toBe(HIT);
    expect(hit.headers.get("etag")).toBe(miss.headers.get("etag"));
    expect(hit.text).toBe(miss.text);
  });

  it("If-None-Match on a miss gives 304 too, and the answer is still stored", async () => {
    const first = await cachedCategory();
    const tag = first.miss.headers.get("etag") as string;
    const other = `${first.path}?locales=es-ES`;
    const miss = await api(other, { headers: { "if-none-match": tag } });
    expect(cacheStatus(miss)).toBe(MISS);
    expect(miss.status).toBe(304);
    expect(cacheStatus(await api(other))).toBe(HIT);
  });

  it("HEAD of a cached URL answers the GET's headers without a body, from the cache", async () => {
    const { path, miss } = await cachedCategory();
    const head = await api(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(cacheStatus(head)).toBe(HIT);
    expect(head.text).toBe("");
    expect(stableHeaders(head)).toEqual(stableHeaders(miss));
  });

  it("HEAD of an uncached URL fills the cache for the GET that follows", async () => {
    const { path } = await cachedCategory();
    const other = `${path}?fields=status`;
    const head = await api(other, { method: "HEAD" });
    expect(cacheStatus(head)).toBe(MISS);
    expect(head.headers.get("etag")).toMatch(/^W\/"/);
    const get = await api(other);
    expect(cacheStatus(get)).toBe(HIT);
    expect(get.headers.get("etag")).toBe(head.headers.get("etag"));
  });
});
