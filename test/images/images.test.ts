import { env } from "cloudflare:workers";
import { OpenAPIHono } from "@hono/zod-openapi";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { AppEnv } from "../../src/env.ts";
import { authenticate } from "../../src/http/auth.ts";
import { renderError } from "../../src/http/errors.ts";
import { requestContext } from "../../src/http/request-context.ts";
import { routeGuard } from "../../src/http/route-guard.ts";
import { ownImageFile, registerImages, storeImage } from "../../src/images/index.ts";

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
