import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { HEALTH_PATH } from "../../src/health/health.routes.ts";
import { publicOrigin, UNCONFIGURED_ORIGIN_EVENT } from "../../src/images/store.ts";
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
const unconfigured = () => {
  const { PUBLIC_BASE_URL: _, ...rest } = env;
  return rest as typeof env;
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
