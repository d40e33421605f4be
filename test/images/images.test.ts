import { env } from "cloudflare:workers";
import { OpenAPIHono } from "@hono/zod-openapi";
import { afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { AppEnv } from "../../src/env.ts";
import { authenticate } from "../../src/http/auth.ts";
import { renderError } from "../../src/http/errors.ts";
import { requestContext } from "../../src/http/request-context.ts";
import { routeGuard } from "../../src/http/route-guard.ts";
import { ownImageFile, registerImages, storeImage } from "../../src/images/index.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

const ORIGIN = "https://api.test";
const fixture = inject("fixtureOrigin");

/** The public part of the app's middleware chain with only the images route mounted. */
function imagesApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestContext, routeGuard, authenticate);
  registerImages(app);
  app.onError(renderError);
  return app;
}
const app = imagesApp();
const get = (path: string, headers: Record<string, string> = {}) =>
  app.request(`${ORIGIN}${path}`, { headers }, env);

const store = (url: string, environment = "development") =>
  storeImage({ IMAGES: env.IMAGES, ENVIRONMENT: environment }, url, "image_url");

async function sha256Hex(bytes: ArrayBuffer | Uint8Array) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const rejection = (code: string, message: string | RegExp) => ({
  code,
  errors: [
    {
      location: "body",
      path: "image_url",
      message: typeof message === "string" ? message : expect.stringMatching(message),
    },
  ],
});

describe("storeImage", () => {
  let png: Uint8Array;
  beforeAll(async () => {
    png = new Uint8Array(await (await fetch(`${fixture}/images/ok`)).arrayBuffer());
  });

  it("stores a PNG in R2 under its sha256, returns that key and serves it back without auth", async () => {
    const hash = await sha256Hex(png);
    const file = await store(`${fixture}/images/ok?v=1`);
    expect(file).toBe(`${hash}.png`);

    const object = await env.IMAGES.get(`${hash}.png`);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(png);

    const res = await get(`/images/${hash}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);

    const etag = res.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    const again = await get(`/images/${hash}.png`, { "if-none-match": etag });
    expect(again.status).toBe(304);
  });

  it("stores the same bytes once, whatever URL they came from", async () => {
    const direct = await store(`${fixture}/images/ok`);
    const redirected = await store(`${fixture}/images/redirect-ok`);
    expect(redirected).toBe(direct);
  });

  it("stores a JPEG with the jpg extension and image/jpeg", async () => {
    const file = await store(`${fixture}/images/jpeg`);
    expect(file).toMatch(/^[0-9a-f]{64}\.jpg$/);
    const res = await get(`/images/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
  });

  it.each([
    ["/images/html", /Content-Type was text\/html/],
    ["/images/svg", /Content-Type was image\/svg\+xml/],
    ["/images/mislabeled", /not a valid image\/png file/],
    ["/images/huge", /larger than 5242880 bytes/],
    ["/images/streamed-huge", /larger than 5242880 bytes/],
    ["/images/missing", /answered 404/],
    ["/images/redirect-loop", /more than 3 redirects/],
  ])("refuses %s as image_unavailable", async (path, message) => {
    await expect(store(`${fixture}${path}`)).rejects.toMatchObject(rejection("image_unavailable", message));
  });

  it("gives up on a slow server after 5 seconds", async () => {
    const started = Date.now();
    await expect(store(`${fixture}/images/slow`)).rejects.toMatchObject(
      rejection("image_unavailable", /did not answer within 5 s/),
    );
    expect(Date.now() - started).toBeLessThan(6_500);
  });

  it("reports an unreachable host as image_unavailable", async () => {
    await expect(store("http://127.0.0.1:1/x.png")).rejects.toMatchObject(
      rejection("image_unavailable", /could not be fetched/),
    );
  });

  it.each([
    ["https://10.0.0.1/logo.png", "must not point to a private network address"],
    ["https://[::ffff:a00:1]/logo.png", "must not point to a private network address"],
    ["https://169.254.169.254/latest/meta-data/", "must not point to a cloud metadata endpoint"],
    ["https://user:pass@example.com/logo.png", "must not include credentials"],
    ["ftp://example.com/logo.png", "must use https"],
  ])("refuses %s as invalid_body", async (url, message) => {
    await expect(store(url)).rejects.toMatchObject(rejection("invalid_body", message));
  });

  it("refuses a redirect to a refused target as invalid_body", async () => {
    await expect(store(`${fixture}/images/redirect-private`)).rejects.toMatchObject(
      rejection("invalid_body", "redirects to a URL that must not point to a private network address"),
    );
    await expect(store(`${fixture}/images/redirect-metadata`)).rejects.toMatchObject(
      rejection("invalid_body", "redirects to a URL that must not point to a cloud metadata endpoint"),
    );
  });

  it("refuses the loopback fixture outside development", async () => {
    await expect(store(`${fixture}/images/ok`, "production")).rejects.toMatchObject(
      rejection("invalid_body", "must not point to a loopback address"),
    );
  });
});

describe("GET /images/{file}", () => {
  it("answers 404 problem JSON for a well-formed unknown file", async () => {
    const res = await get(`/images/${"a".repeat(64)}.png`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ code: "not_found", status: 404 });
  });

  it.each(["logo.png", `${"a".repeat(64)}.svg`, `${"A".repeat(64)}.png`, `${"a".repeat(63)}.png`])(
    "answers 400 for the malformed name %s",
    async (file) => {
      const res = await get(`/images/${file}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: "invalid_parameter",
        errors: [{ location: "path", path: "file" }],
      });
    },
  );
});

describe("ownImageFile", () => {
  const file = `${"b".repeat(64)}.webp`;
  it("recognises only this origin's /images/<sha256>.<ext> URLs, giving the object key", () => {
    expect(ownImageFile(`${ORIGIN}/images/${file}`, ORIGIN)).toBe(file);
    expect(ownImageFile(`https://other.test/images/${file}`, ORIGIN)).toBeNull();
    expect(ownImageFile(`${ORIGIN}/images/${file}?x=1`, ORIGIN)).toBeNull();
    expect(ownImageFile(`${ORIGIN}/images/logo.png`, ORIGIN)).toBeNull();
    expect(ownImageFile(`${ORIGIN}/images/../images/${file}`, ORIGIN)).toBeNull();
  });
});

describe("images in the OpenAPI document", () => {
  it("documents GET /images/{file} as public, with binary image answers", () => {
    const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const operation = doc.paths?.["/images/{file}"]?.get;
    expect(operation?.operationId).toBe("getImage");
    expect(operation?.security).toBeUndefined();
    expect(Object.keys((operation?.responses?.["200"] as any)?.content ?? {})).toEqual([
      "image/png",
      "image/jpeg",
      "image/webp",
      "image/gif",
      "image/avif",
    ]);
  });
});

describe("image_url: stored images render on the configured public origin, never the request's Host", () => {
  const PUBLIC = "https://api.test"; // PUBLIC_BASE_URL in vitest.config.ts
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
    const file = res.json.image_url.slice(`${PUBLIC}/images/`.length);
    expect(await storedBrandImage(res.json.id)).toBe(file);
    const read = await api(`/api/v1/brands/${res.json.id}?fields=image_url`, {
      origin: "http://127.0.0.1:8787",
    });
    expect(read.json.image_url).toBe(`${PUBLIC}/images/${file}`);
  });

  it("our own URL of an object that exists is accepted without a download", async () => {
    const file = await storedObject();
    const requested = recordDownloads();
    const res = await api("/api/v1/brands?fields=image_url", {
      method: "POST",
      body: { name: unique("Own"), translations: {}, image_url: `${PUBLIC}/images/${file}` },
    });
    expect(res.status).toBe(201);
    expect(res.json.image_url).toBe(`${PUBLIC}/images/${file}`);
    expect(await storedBrandImage(res.json.id)).toBe(file);
    expect(requested).toEqual([]);
  });

  it("our own /images/ URL of an object that does not exist is not trusted: it is downloaded like any URL", async () => {
    const requested = recordDownloads();
    const missing = `${PUBLIC}/images/${"c".repeat(64)}.png`;
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
    expect(read.json.image_url).toBe(`${PUBLIC}/images/${file}`);
    const requested = recordDownloads();
    const patch = await api(`/api/v1/brands/${id}?fields=image_url`, {
      method: "PATCH",
      body: { image_url: read.json.image_url },
    });
    expect(patch.status).toBe(200);
    expect(patch.json.image_url).toBe(`${PUBLIC}/images/${file}`);
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
    expect(`${PUBLIC}/images/${row?.image_url}`).toBe(res.json.image_url);
  });
});
