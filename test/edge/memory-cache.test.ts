import { describe, expect, it } from "vitest";
import { MemoryCache } from "../../src/edge/memory-cache.ts";

const answer = (bytes: number, storedAt: number, seconds: number) => ({
  status: 200,
  headers: [["content-type", "application/json"]] as [string, string][],
  body: new Uint8Array(bytes),
  storedAt,
  expiresAt: storedAt + seconds * 1000,
});

describe("the local cache (development's stand-in for Workers Cache)", () => {
  it("serves an entry until its max-age has passed, never after", () => {
    const cache = new MemoryCache(1000);
    cache.put("k", answer(10, 1_000, 60));
    expect(cache.get("k", 1_000 + 59_999)).toBeDefined();
    expect(cache.get("k", 1_000 + 60_000)).toBeUndefined();
    expect(cache.get("k", 1_000)).toBeUndefined(); // an expired entry is gone
  });

  it("evicts the least recently used entries beyond its size, and never keeps one larger than all of it", () => {
    const cache = new MemoryCache(100);
    cache.put("a", answer(40, 0, 60));
    cache.put("b", answer(40, 0, 60));
    expect(cache.get("a", 1)).toBeDefined(); // a is now the most recently used
    cache.put("c", answer(40, 0, 60));
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("c", 1)).toBeDefined();
    cache.put("huge", answer(101, 0, 60));
    expect(cache.get("huge", 1)).toBeUndefined();
  });

  it("an entry's compressed body counts toward its size: adding it evicts the least recently used", () => {
    const cache = new MemoryCache(100);
    const a = answer(40, 0, 60);
    cache.put("a", a);
    cache.put("b", answer(40, 0, 60));
    expect(cache.get("a", 1)).toBeDefined(); // b is now the least recently used
    cache.addGzip("a", a, new Uint8Array(30));
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)?.gzip?.byteLength).toBe(30);
  });

  it("a compressed body made for an entry since replaced is dropped", () => {
    const cache = new MemoryCache(1000);
    const old = answer(40, 0, 60);
    cache.put("k", old);
    cache.put("k", answer(50, 0, 60));
    cache.addGzip("k", old, new Uint8Array(10));
    expect(cache.get("k", 1)?.gzip).toBeUndefined();
  });
});
