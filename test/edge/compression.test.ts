import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createProduct } from "../support/factories/catalog.ts";
import { KEYS } from "../support/keys.ts";

const HIT = "storefront; hit";

/**
 * A call of the Worker and its body's bytes. The runtime decodes a gzip body on the way (as an
 * HTTP client does): a body sent with `Content-Encoding: gzip` that is not gzip fails to read.
 */
async function get(path: string, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(
    new Request(`https://api.test${path}`, { headers: { authorization: `Bearer ${KEYS.all}`, ...headers } }),
  );
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

let lists = 0;

/** A list page of a few products (well over a kilobyte), at a URL no other test reads. */
async function listPath() {
  for (let i = 0; i < 4; i++) await createProduct({ names: { "es-ES": `Producto comprimido ${i}` } });
  lists++;
  return `/api/v1/products?per_page=${3 + lists}&sort=id_desc&locales=ALL`;
}

/** Reads `path` until the cache sends its compressed body (it is made after the miss is sent). */
async function gzippedHit(path: string) {
  for (let i = 0; i < 50; i++) {
    const answer = await get(path, { "accept-encoding": "gzip, deflate" });
    if (answer.res.headers.get("content-encoding") === "gzip") return answer;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path}: no gzip-compressed hit`);
}

describe("hits are sent gzip-compressed to clients that accept gzip", () => {
  it("a hit to a client accepting gzip is the computed answer compressed: the same bytes once decoded, the same ETag", async () => {
    const path = await listPath();
    const computed = await get(path);
    expect(computed.res.headers.get("cache-status")).toBe("storefront; fwd=miss");
    expect(computed.res.headers.get("content-encoding")).toBeNull();
    const hit = await gzippedHit(path);
    expect(hit.res.headers.get("cache-status")).toBe(HIT);
    expect(hit.bytes).toEqual(computed.bytes);
    expect(hit.res.headers.get("etag")).toBe(computed.res.headers.get("etag"));
  });

  it("a client that does not accept gzip (no header, identity, gzip;q=0) gets the same hit uncompressed", async () => {
    const path = await listPath();
    const computed = await get(path);
    await gzippedHit(path);
    for (const value of [undefined, "identity", "gzip;q=0", "gzip;q=0, *"]) {
      const hit = await get(path, value === undefined ? {} : { "accept-encoding": value });
      expect(hit.res.headers.get("cache-status"), value).toBe(HIT);
      expect(hit.res.headers.get("content-encoding"), value).toBeNull();
      expect(hit.bytes, value).toEqual(computed.bytes);
    }
  });

  it("`*` in Accept-Encoding takes gzip", async () => {
    const path = await listPath();
    await get(path);
    await gzippedHit(path);
    const hit = await get(path, { "accept-encoding": "*" });
    expect(hit.res.headers.get("content-encoding")).toBe("gzip");
  });

  it("every cacheable answer says Vary: Accept-Encoding; an uncached one does not", async () => {
    const path = await listPath();
    expect((await get(path)).res.headers.get("vary")).toContain("Accept-Encoding");
    expect((await gzippedHit(path)).res.headers.get("vary")).toContain("Accept-Encoding");
    expect((await get("/api/v1/orders")).res.headers.get("vary")).toBeNull();
  });

  it("a 304 to If-None-Match on a compressed hit carries no Content-Encoding and no body", async () => {
    const path = await listPath();
    const computed = await get(path);
    await gzippedHit(path);
    const etag = computed.res.headers.get("etag") as string;
    const res = await get(path, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(res.res.status).toBe(304);
    expect(res.res.headers.get("content-encoding")).toBeNull();
    expect(res.bytes.byteLength).toBe(0);
  });

  it("an answer under a kilobyte is never compressed", async () => {
    const { id } = await createProduct();
    const path = `/api/v1/products/${id}`;
    const computed = await get(path);
    expect(computed.bytes.byteLength).toBeLessThan(1024);
    for (let i = 0; i < 20; i++) {
      const hit = await get(path, { "accept-encoding": "gzip" });
      if (hit.res.headers.get("cache-status") !== HIT) continue;
      expect(hit.res.headers.get("content-encoding")).toBeNull();
      expect(hit.bytes).toEqual(computed.bytes);
      return;
    }
    throw new Error("no hit");
  });
});
