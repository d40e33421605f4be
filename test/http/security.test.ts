import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, inject, it, type MockInstance, vi } from "vitest";
import { apiKeys } from "../../src/db/schema/index.ts";
import { clearApiKeyCache, constantTimeEqual } from "../../src/http/auth.ts";
import { safeFetch } from "../../src/http/outbound-guard.ts";
import { sha256Hex } from "../../src/lib/sha256.ts";
import { api, send } from "../support/api.ts";
import { apiKeyRow, createApiKey } from "../support/factories/api-keys.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";
import { KEYS } from "../support/keys.ts";
import { testDb } from "../support/test-db.ts";
import { unique } from "../support/unique.ts";

const fixture = inject("fixtureOrigin");

/** Every console method, captured: what the Worker would send to its logs. */
function captureLogs() {
  const lines: string[] = [];
  const spies: MockInstance[] = (["log", "info", "warn", "error", "debug", "trace"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : (JSON.stringify(a) ?? String(a)))).join(" "));
    }),
  );
  return {
    text: () => lines.join("\n"),
    count: () => lines.length,
    restore: () => {
      for (const s of spies) s.mockRestore();
    },
  };
}

const brokenDb = new Proxy(env.DB, {
  get(target, prop) {
    if (prop === "prepare" || prop === "batch" || prop === "withSession" || prop === "exec") {
      return () => {
        throw new Error("D1_ERROR: database unavailable (injected by the test)");
      };
    }
    return Reflect.get(target, prop);
  },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("security headers on every response", () => {
  let brand: number;
  let hook: number;
  let image: string;

  beforeAll(async () => {
    const created = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("Headers"), translations: {}, image_url: `${fixture}/images/ok` },
    });
    expect(created.status, created.text).toBe(201);
    brand = created.json.id;
    image = new URL((await api(`/api/v1/brands/${brand}?fields=image_url`)).json.image_url).pathname;
    hook = (
      await api("/api/v1/webhooks", {
        method: "POST",
        body: { url: `${fixture}/webhooks/ok/h`, events: ["job.done"] },
      })
    ).json.id;
  });

  const cases: [string, () => Promise<{ status: number; headers: Headers }>, number][] = [
    ["200 GET", () => api("/api/v1/store"), 200],
    ["200 list", () => api("/api/v1/brands"), 200],
    [
      "201 create",
      () => api("/api/v1/suppliers", { method: "POST", body: { name: "S", internal_id: unique("S") } }),
      201,
    ],
    [
      "202 bulk",
      () =>
        api("/api/v1/variants/bulk", {
          method: "POST",
          body: { variants: [{ id: 1 }], options: { match_by: "id" } },
        }),
      202,
    ],
    ["204 delete", () => api(`/api/v1/webhooks/${hook}`, { method: "DELETE" }), 204],
    ["400 validation", () => api("/api/v1/brands?nope=1"), 400],
    ["401 no key", () => api("/api/v1/brands", { key: null }), 401],
    ["403 scope", () => api("/api/v1/webhooks", { key: "read" }), 403],
    ["404 unknown route", () => api("/api/v1/nothing", { key: null }), 404],
    ["404 unknown id", () => api("/api/v1/brands/999999"), 404],
    ["405 wrong method", () => api("/api/v1/store", { method: "DELETE", key: null }), 405],
    [
      "409 conflict",
      () =>
        api(`/api/v1/brands/${brand}`, { method: "PATCH", body: { slug: "taken-slug" } }).then(() =>
          api("/api/v1/brands", {
            method: "POST",
            body: { name: "x", slug: "taken-slug", translations: {} },
          }),
        ),
      409,
    ],
    [
      "413 too large",
      () => api("/api/v1/suppliers", { method: "POST", body: `{"name":"${"x".repeat(1_100_000)}"}` }),
      413,
    ],
    [
      "415 not JSON",
      () =>
        api("/api/v1/suppliers", {
          method: "POST",
          body: "name=x",
          headers: { "content-type": "text/plain" },
        }),
      415,
    ],
    ["200 docs", () => api("/docs", { key: null }), 200],
    ["200 OpenAPI", () => api("/api/v1/openapi.json", { key: null }), 200],
    ["200 image", () => api(image, { key: null }), 200],
    ["404 image", () => api(`/images/${"0".repeat(64)}.png`, { key: null }), 404],
  ];

  it.each(cases)("%s: nosniff and no framework banner", async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("server") ?? "").not.toMatch(/hono|workerd|node|express/i);
  });

  it("304 Not Modified keeps nosniff", async () => {
    const first = await api("/api/v1/store");
    const again = await api("/api/v1/store", {
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a 500 is problem JSON with nosniff and a request id, and leaks no stack or internal message", async () => {
    const logs = captureLogs();
    const res = await api("/api/v1/brands", { bindings: { ...env, DB: brokenDb } as typeof env });
    logs.restore();
    const text = res.text;
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      status: 500,
      code: "internal",
      request_id: res.headers.get("x-request-id"),
    });
    expect(text).not.toMatch(/D1_ERROR|injected|at .*\.ts|stack/i);
    // The log line has what an operator needs, under the same request id.
    expect(logs.text()).toContain(body.request_id);
  });
});

describe("API key secrets never leave the request", () => {
  const secret = `sfk_${"s3cr3t".repeat(6)}`;

  beforeAll(async () => {
    await createApiKey(secret, { name: "leak-check" });
  });

  const withKey = (key: string, init: RequestInit & { path: string }) =>
    new Request(`https://api.test${init.path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(init.headers ?? {}),
      },
    });

  it("appears in no log line, error body or header of failing requests that carry it", async () => {
    const logs = captureLogs();
    const internalId = unique("LEAK");
    const requests = [
      withKey(secret, { path: "/api/v1/brands?nope=1" }),
      withKey(secret, { path: "/api/v1/brands/999999" }),
      withKey(secret, { path: "/api/v1/brands", method: "POST", body: "{" }),
      withKey(secret, {
        path: "/api/v1/suppliers",
        method: "POST",
        body: JSON.stringify({ name: "a", internal_id: internalId }),
      }),
      withKey(secret, {
        path: "/api/v1/suppliers",
        method: "POST",
        body: JSON.stringify({ name: "b", internal_id: internalId }),
      }),
      withKey(secret, {
        path: "/api/v1/suppliers",
        method: "POST",
        body: "x=1",
        headers: { "content-type": "text/plain" },
      }),
      withKey(secret, { path: "/api/v1/suppliers", method: "POST", body: `"${"x".repeat(1_100_000)}"` }),
      withKey(`${secret}x`, { path: "/api/v1/brands" }), // unknown key that contains the real one
      withKey(`${secret} extra`, { path: "/api/v1/brands" }), // malformed header
      withKey(secret, { path: "/api/v1/nothing" }),
    ];
    const texts: string[] = [];
    for (const request of requests) {
      const res = await send(request, env);
      texts.push(res.text, JSON.stringify([...res.headers]));
    }
    // And one that fails inside, with the database gone.
    const res500 = await send(withKey(secret, { path: "/api/v1/brands" }), {
      ...env,
      DB: brokenDb,
    } as typeof env);
    texts.push(res500.text, JSON.stringify([...res500.headers]));
    logs.restore();
    expect(res500.status).toBe(500);
    expect(logs.count()).toBeGreaterThan(0); // the 500 was logged: the capture works
    const all = `${texts.join("\n")}\n${logs.text()}`;
    expect(all).not.toContain(secret);
    expect(all).not.toContain(secret.slice(4)); // not even without its prefix
  });

  it("is stored only as its SHA-256 hash, and nothing else in the database holds it", async () => {
    await send(
      withKey(secret, {
        path: "/api/v1/suppliers",
        method: "POST",
        body: JSON.stringify({ name: "c", internal_id: unique("LEAK") }),
        headers: { "idempotency-key": "leak-check" },
      }),
      env,
    );
    const tables = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    for (const { name } of tables.results) {
      const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      expect(JSON.stringify(results), name).not.toContain(secret.slice(4, 20));
    }
    const row = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE name = 'leak-check'").first<{
      key_hash: string;
    }>();
    expect(row?.key_hash).toBe(await sha256Hex(secret));
  });
});

describe("keys are compared in constant time", () => {
  it("compares hashes with crypto.subtle.timingSafeEqual", () => {
    const spy = vi.spyOn(crypto.subtle, "timingSafeEqual");
    expect(constantTimeEqual("a".repeat(64), "a".repeat(64))).toBe(true);
    expect(constantTimeEqual("a".repeat(64), `${"a".repeat(63)}b`)).toBe(false);
    expect(constantTimeEqual("a".repeat(64), "a".repeat(63))).toBe(false);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it("checks the stored hash against the computed one on every key lookup", async () => {
    clearApiKeyCache();
    const spy = vi.spyOn(crypto.subtle, "timingSafeEqual");
    const res = await api("/api/v1/store", { key: "read", bindings: env });
    expect(res.status).toBe(200);
    const hash = new TextEncoder().encode(await sha256Hex(KEYS.read));
    expect(spy).toHaveBeenCalledWith(hash, hash);
  });

  it("refuses a stored hash that matches only case-insensitively", async () => {
    const secret = `sfk_${unique("case").replace(/-/g, "_")}`;
    const row = await apiKeyRow("case", secret, ["read"]);
    await testDb()
      .insert(apiKeys)
      .values({ ...row, keyHash: row.keyHash.toUpperCase() });
    const res = await api("/api/v1/store", { key: null, headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(401);
  });
});

describe("webhook secrets are shown once", () => {
  it("appears only in the creation and rotation answers: never in reads, replays, errors, storage or logs", async () => {
    const logs = captureLogs();
    const token = unique("secret-check");
    const created = await api("/api/v1/webhooks", {
      method: "POST",
      body: {
        url: `${fixture}/webhooks/ok/${token}`,
        events: ["job.done", "job.done_with_errors", "job.failed"],
      },
      headers: { "Idempotency-Key": token },
    });
    expect(created.status).toBe(201);
    const secret = created.json.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const id = created.json.id as number;

    const seen: string[] = [];
    const read = async (path: string, init: Parameters<typeof api>[1] = {}) => {
      const res = await api(path, init);
      seen.push(res.text, JSON.stringify([...res.headers]));
      return res;
    };
    const replay = await read("/api/v1/webhooks", {
      method: "POST",
      body: {
        url: `${fixture}/webhooks/ok/${token}`,
        events: ["job.done", "job.done_with_errors", "job.failed"],
      },
      headers: { "Idempotency-Key": token },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    await read(`/api/v1/webhooks/${id}`);
    await read("/api/v1/webhooks?per_page=100");
    await read(`/api/v1/webhooks/${id}?fields=url,events,description,status`);
    await read(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { description: "no rotation" } });
    await read(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { events: [] } });
    await read(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { secret } });

    // A job finishes and the subscription gets its signed delivery.
    const product = await createProduct();
    const jobId = await submitBulk("/api/v1/variants/bulk", {
      variants: [{ id: product.variantIds[0], warehouse_stock: 3 }],
      options: { match_by: "id" },
    });
    await waitForJob(jobId);
    let delivered = false;
    for (let i = 0; i < 100 && !delivered; i++) {
      const deliveries = await read(`/api/v1/webhooks/${id}/deliveries`);
      delivered = (deliveries.json?.data ?? []).some((d: { status: string }) => d.status === "succeeded");
      if (!delivered) await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivered, "a signed delivery reached the receiver").toBe(true);

    const rotated = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { rotate_secret: true } });
    expect(rotated.status).toBe(200);
    const next = rotated.json.secret as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    await read(`/api/v1/webhooks/${id}`);
    logs.restore();

    const visible = seen.join("\n");
    expect(visible).not.toContain(secret.slice(6));
    expect(visible).not.toContain(next.slice(6));
    expect(logs.text()).not.toContain(secret.slice(6));
    expect(logs.text()).not.toContain(next.slice(6));
    const stored = await env.DB.prepare("SELECT response_body AS b FROM idempotency_keys WHERE key = ?")
      .bind(token)
      .first<{ b: string }>();
    expect(stored?.b).toBeTruthy();
    expect(stored?.b).not.toContain(secret.slice(6));
  });
});

describe("outbound URL guard: cases test/http/outbound-guard.test.ts does not cover", () => {
  /** Stands in for hosts on the internet: each URL answers as the map says. */
  function internet(routes: Record<string, () => Response>) {
    const requested: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      requested.push(url);
      const route = routes[url];
      if (!route) throw new TypeError(`no route to ${url}`);
      return route();
    });
    return requested;
  }
  const redirect =
    (location: string, status = 302) =>
    () =>
      new Response(null, { status, headers: { location } });
  const PNG = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
    (c) => c.charCodeAt(0),
  );
  const options = { env: { ENVIRONMENT: "production" }, timeoutMs: 2_000, maxBytes: 1024 * 1024 };

  it.each([
    ["credentials", "https://user:pass@images.example.com/a.png", "must not include credentials"],
    ["plain http", "http://images.example.com/a.png", "must use https"],
    ["loopback by name", "https://localhost/a.png", "must not point to a loopback address"],
    ["loopback in decimal", "https://2130706433/a.png", "must not point to a loopback address"],
    ["IPv6 loopback", "https://[::1]/a.png", "must not point to a loopback address"],
    [
      "IPv4-mapped private",
      "https://[::ffff:192.168.0.1]/a.png",
      "must not point to a private network address",
    ],
    ["a non-http scheme", "file:///etc/passwd", "must use https"],
  ])("refuses a redirect to %s, without fetching it", async (_name, location, message) => {
    const requested = internet({ "https://cdn.example.com/a.png": redirect(location) });
    const result = await safeFetch("https://cdn.example.com/a.png", options);
    expect(result).toEqual({ ok: false, reason: "refused", message: `redirects to a URL that ${message}` });
    expect(requested).toEqual(["https://cdn.example.com/a.png"]);
  });

  it("refuses a refused target reached after an allowed redirect", async () => {
    const requested = internet({
      "https://a.example.com/x": redirect("https://b.example.com/y", 301),
      "https://b.example.com/y": redirect("https://169.254.169.254/latest/meta-data/", 307),
    });
    const result = await safeFetch("https://a.example.com/x", options);
    expect(result).toMatchObject({ ok: false, reason: "refused" });
    expect(requested).toEqual(["https://a.example.com/x", "https://b.example.com/y"]);
  });

  it("drops the Authorization header on a redirect to another origin", async () => {
    const seen: (string | null)[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get("authorization"));
      return String(input).startsWith("https://a.example.com")
        ? new Response(null, { status: 302, headers: { location: "https://b.example.com/" } })
        : new Response("ok");
    });
    await safeFetch("https://a.example.com/", {
      ...options,
      init: { headers: { authorization: "Bearer x" } },
    });
    expect(seen).toEqual(["Bearer x", null]);
  });

  it.each([
    ["application/octet-stream", "application/octet-stream"],
    ["no Content-Type", null],
    ["text/plain", "text/plain"],
  ])("refuses image bytes served as %s (image_unavailable, nothing saved)", async (_name, type) => {
    internet({
      "https://cdn.example.com/logo.png": () =>
        new Response(PNG, { headers: type ? { "content-type": type } : {} }),
    });
    const name = unique("Typed");
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name, translations: {}, image_url: "https://cdn.example.com/logo.png" },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("image_unavailable");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM brands WHERE name = ?")
      .bind(name)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("refuses an image over 5 MiB that declares a small Content-Length", async () => {
    internet({
      "https://cdn.example.com/big.png": () => {
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(PNG);
            for (let i = 0; i < 6; i++) controller.enqueue(new Uint8Array(1024 * 1024));
            controller.close();
          },
        });
        return new Response(body, { headers: { "content-type": "image/png", "content-length": "100" } });
      },
    });
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("Big"), translations: {}, image_url: "https://cdn.example.com/big.png" },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("image_unavailable");
    expect(res.json.detail).toContain("larger than");
  });

  it.each([
    ["https://user:pass@hooks.example.com/x", "must not include credentials"],
    ["https://169.254.169.254/latest/meta-data/", "must not point to a cloud metadata endpoint"],
    ["https://10.1.2.3/hook", "must not point to a private network address"],
    ["http://hooks.example.com/x", "must use https"],
  ])("refuses the webhook URL %s", async (url, message) => {
    const res = await api("/api/v1/webhooks", { method: "POST", body: { url, events: ["job.done"] } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toContainEqual({ location: "body", path: "url", message });
  });
});
