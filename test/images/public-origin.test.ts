import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { HEALTH_PATH } from "../../src/health/health.routes.ts";
import { publicOrigin, UNCONFIGURED_ORIGIN_EVENT } from "../../src/images/store.ts";
import { sha256Hex } from "../../src/lib/sha256.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

/**
 * Image URLs in every answer are built on the configured public origin (`PUBLIC_BASE_URL`, which
 * vitest.config.ts sets to https://api.test); no request header changes them, and a deployment
 * without one answers root-relative URLs, never the request's origin.
 */

const CONFIGURED = "https://api.test";
const fixture = inject("fixtureOrigin");
const IMAGE = /^[0-9a-f]{64}\.png$/;

/** The ways a request can name another host: its own address (Host) and the proxy headers. */
const HOSTILE: { name: string; origin?: string; headers?: Record<string, string> }[] = [
  { name: "Host", origin: "http://attacker.example", headers: { host: "attacker.example" } },
  {
    name: "X-Forwarded-Host",
    headers: { "x-forwarded-host": "attacker.example", "x-forwarded-proto": "http" },
  },
  { name: "Forwarded", headers: { forwarded: "for=192.0.2.1;host=attacker.example;proto=http" } },
];

/** The app as deployed without a public origin. */
/**
 * The Worker's bindings without a public origin: a deployment configured otherwise than the test
 * Worker, whose reads therefore skip the edge cache (its entrypoint answers with the Worker's own
 * bindings, origin included).
 */
const unconfigured = () => {
  const { PUBLIC_BASE_URL: _, ...rest } = env;
  return { ...rest, EDGE_CACHE: "off" } as typeof env;
};

const createBrand = (how: (typeof HOSTILE)[number], bindings?: typeof env) =>
  api("/api/v1/brands?fields=image_url", {
    method: "POST",
    origin: how.origin,
    headers: how.headers,
    bindings,
    body: { name: unique(`Brand ${how.name}`), translations: {}, image_url: `${fixture}/images/ok` },
  });

const getBrand = (id: number, how: (typeof HOSTILE)[number], bindings?: typeof env) =>
  api(`/api/v1/brands/${id}?fields=image_url`, { origin: how.origin, headers: how.headers, bindings });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("image URLs are built on the configured public origin, whatever the request's headers say", () => {
  for (const how of HOSTILE) {
    it(`a create and a get sent with ${how.name} attacker.example answer on the configured origin`, async () => {
      const created = await createBrand(how);
      expect(created.status, created.text).toBe(201);
      expect(created.json.image_url.slice(0, `${CONFIGURED}/images/`.length)).toBe(`${CONFIGURED}/images/`);
      expect(created.json.image_url.slice(`${CONFIGURED}/images/`.length)).toMatch(IMAGE);
      const read = await getBrand(created.json.id, how);
      expect(read.json.image_url).toBe(created.json.image_url);
      const list = await api(`/api/v1/brands?brand_ids=${created.json.id}&fields=image_url`, {
        origin: how.origin,
        headers: how.headers,
      });
      expect(list.json.data[0].image_url).toBe(created.json.image_url);
    });
  }

  it("another configured origin (npm run dev's own address) is the one answered", async () => {
    const dev = { ...env, PUBLIC_BASE_URL: "http://localhost:8799" } as typeof env;
    const created = await createBrand(HOSTILE[0] as (typeof HOSTILE)[number], dev);
    expect(created.status, created.text).toBe(201);
    expect(created.json.image_url).toMatch(/^http:\/\/localhost:8799\/images\/[0-9a-f]{64}\.png$/);
  });
});

describe("a deployment with no public origin configured", () => {
  for (const how of HOSTILE) {
    it(`answers root-relative image URLs to a create and a get sent with ${how.name}, never the request's origin`, async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const created = await createBrand(how, unconfigured());
      expect(created.status, created.text).toBe(201);
      expect(created.json.image_url).toMatch(/^\/images\/[0-9a-f]{64}\.png$/);
      const read = await getBrand(created.json.id, how, unconfigured());
      expect(read.json.image_url).toBe(created.json.image_url);
    });
  }

  it("health reports public_origin null and logs the error at every check", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    for (let i = 0; i < 2; i++) {
      const res = await api(HEALTH_PATH, { key: null, bindings: unconfigured() });
      expect(res.status).toBe(200);
      expect(res.json.public_origin).toBeNull();
    }
    const logged = errors.mock.calls.filter(([line]) => String(line).includes(UNCONFIGURED_ORIGIN_EVENT));
    expect(logged).toHaveLength(2);
    expect(JSON.parse(String(logged[0]?.[0]))).toMatchObject({
      level: "error",
      event: UNCONFIGURED_ORIGIN_EVENT,
    });
  });
});

describe("stored images: kept as object keys, and our own URLs trusted only on the configured origin", () => {
  const ATTACKER = "https://attacker.example";
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Answers every outbound request with 404 and records its URL (nothing leaves the machine). */
  function recordDownloads() {
    const requested: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      requested.push(input instanceof Request ? input.url : String(input));
      return new Response("not found", { status: 404 });
    });
    return requested;
  }

  /** An object in the images bucket, as a download would have stored it. */
  async function storedObject() {
    const file = `${await sha256Hex(new TextEncoder().encode(unique("img")))}.png`;
    await env.IMAGES.put(file, new Uint8Array([1]), { httpMetadata: { contentType: "image/png" } });
    return file;
  }

  const brandCount = async (name: string) =>
    (
      await env.DB.prepare("SELECT COUNT(*) AS n FROM brands WHERE name = ?")
        .bind(name)
        .first<{ n: number }>()
    )?.n;
  const storedBrandImage = async (id: number) =>
    (
      await env.DB.prepare("SELECT image_url FROM brands WHERE id = ?")
        .bind(id)
        .first<{ image_url: string | null }>()
    )?.image_url;

  it("a request sent with another Host cannot make its own origin's /images/ URL trusted: nothing is stored", async () => {
    const existing = await storedObject();
    const requested = recordDownloads();
    for (const [origin, imageUrl] of [
      ["http://attacker.example", `http://attacker.example/images/${"a".repeat(64)}.png`],
      [ATTACKER, `${ATTACKER}/images/${existing}`],
    ] as const) {
      const name = unique("Hostile");
      const res = await api("/api/v1/brands", {
        origin,
        method: "POST",
        body: { name, translations: {}, image_url: imageUrl },
      });
      expect(res.status, imageUrl).toBe(400);
      expect(await brandCount(name)).toBe(0);
    }
    // The https one went through the outbound guard and a download like any external URL.
    expect(requested).toEqual([`${ATTACKER}/images/${existing}`]);
  });

  it("a downloaded image is stored as its object key and renders on the configured origin, whatever the Host", async () => {
    const res = await api("/api/v1/brands?fields=image_url", {
      origin: ATTACKER,
      method: "POST",
      body: { name: unique("Hosted"), translations: {}, image_url: `${fixture}/images/ok` },
    });
    expect(res.status).toBe(201);
    expect(res.json.image_url).toMatch(/^https:\/\/api\.test\/images\/[0-9a-f]{64}\.png$/);
    const file = res.json.image_url.slice(`${CONFIGURED}/images/`.length);
    expect(await storedBrandImage(res.json.id)).toBe(file);
    const read = await api(`/api/v1/brands/${res.json.id}?fields=image_url`, {
      origin: "http://127.0.0.1:8787",
    });
    expect(read.json.image_url).toBe(`${CONFIGURED}/images/${file}`);
  });

  it("our own URL of an object that exists is accepted without a download", async () => {
    const file = await storedObject();
    const requested = recordDownloads();
    const res = await api("/api/v1/brands?fields=image_url", {
      method: "POST",
      body: { name: unique("Own"), translations: {}, image_url: `${CONFIGURED}/images/${file}` },
    });
    expect(res.status).toBe(201);
    expect(res.json.image_url).toBe(`${CONFIGURED}/images/${file}`);
    expect(await storedBrandImage(res.json.id)).toBe(file);
    expect(requested).toEqual([]);
  });

  it("our own /images/ URL of an object that does not exist is not trusted: it is downloaded like any URL", async () => {
    const requested = recordDownloads();
    const missing = `${CONFIGURED}/images/${"c".repeat(64)}.png`;
    const name = unique("Missing");
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name, translations: {}, image_url: missing },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("image_unavailable");
    expect(requested).toEqual([missing]);
    expect(await brandCount(name)).toBe(0);
  });

  it("a row stored as a full URL (before object keys) renders on the configured origin and stays unchanged when sent back", async () => {
    const file = `${"d".repeat(64)}.png`;
    const legacy = `http://localhost:8787/images/${file}`;
    const { meta } = await env.DB.prepare("INSERT INTO brands (name, slug, image_url) VALUES (?, ?, ?)")
      .bind(unique("Legacy"), unique("legacy"), legacy)
      .run();
    const id = meta.last_row_id;
    const read = await api(`/api/v1/brands/${id}?fields=image_url`);
    expect(read.json.image_url).toBe(`${CONFIGURED}/images/${file}`);
    const requested = recordDownloads();
    const patch = await api(`/api/v1/brands/${id}?fields=image_url`, {
      method: "PATCH",
      body: { image_url: read.json.image_url },
    });
    expect(patch.status).toBe(200);
    expect(patch.json.image_url).toBe(`${CONFIGURED}/images/${file}`);
    expect(requested).toEqual([]);
    expect(await storedBrandImage(id)).toBe(legacy);
  });

  it("categories follow the same rules: stored as the object key, rendered on the configured origin", async () => {
    const res = await api("/api/v1/categories?fields=image_url", {
      origin: ATTACKER,
      method: "POST",
      body: {
        status: "published",
        translations: { "es-ES": { name: unique("Cat") } },
        image_url: `${fixture}/images/ok`,
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.image_url).toMatch(/^https:\/\/api\.test\/images\/[0-9a-f]{64}\.png$/);
    const row = await env.DB.prepare("SELECT image_url FROM categories WHERE id = ?")
      .bind(res.json.id)
      .first<{ image_url: string }>();
    expect(`${CONFIGURED}/images/${row?.image_url}`).toBe(res.json.image_url);
  });
});

describe("health reports the public origin in use", () => {
  it("is the configured origin, whatever the request's Host", async () => {
    const res = await api(HEALTH_PATH, { key: null, origin: "http://attacker.example" });
    expect(res.status).toBe(200);
    expect(res.json.public_origin).toBe(CONFIGURED);
  });
});

describe("publicOrigin", () => {
  it("is the origin of PUBLIC_BASE_URL", () => {
    expect(publicOrigin({ PUBLIC_BASE_URL: "https://shop.example.com/" })).toBe("https://shop.example.com");
    expect(publicOrigin({ PUBLIC_BASE_URL: "http://localhost:8787" })).toBe("http://localhost:8787");
  });

  it("is null when PUBLIC_BASE_URL is not configured", () => {
    expect(publicOrigin({})).toBeNull();
    expect(publicOrigin({ PUBLIC_BASE_URL: "" })).toBeNull();
  });

  it("refuses a PUBLIC_BASE_URL that is not an absolute http(s) URL", () => {
    expect(() => publicOrigin({ PUBLIC_BASE_URL: "api.example.com" })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => publicOrigin({ PUBLIC_BASE_URL: "ftp://api.example.com" })).toThrow(/PUBLIC_BASE_URL/);
  });
});
