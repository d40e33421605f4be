import { type Context, Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../src/env.ts";
import { etag } from "../../src/http/etag.ts";
import { requestContext } from "../../src/http/request-context.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

/** The tag the contract derives from a body: the first 18 bytes of its SHA-256, base64url. */
async function tagOf(body: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  const b64 = btoa(String.fromCharCode(...digest.subarray(0, 18)));
  return `W/"${b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
}

const createSupplier = async (name: string) => {
  const created = await api("/api/v1/suppliers", {
    method: "POST",
    body: { name, internal_id: unique("etag") },
  });
  expect(created.status).toBe(201);
  return created.json.id as number;
};

describe("ETag of a JSON answer", () => {
  it("is the SHA-256 of the exact bytes sent, non-ASCII text included", async () => {
    const id = await createSupplier("Ñandú ☕ 供应商 🚚");
    const res = await api(`/api/v1/suppliers/${id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Ñandú ☕ 供应商 🚚");
    expect(res.headers.get("etag")).toBe(await tagOf(res.text));
  });

  it("is the same for the same body and changes with the body", async () => {
    const id = await createSupplier("Before");
    const first = await api(`/api/v1/suppliers/${id}`);
    const again = await api(`/api/v1/suppliers/${id}`);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    await api(`/api/v1/suppliers/${id}`, { method: "PATCH", body: { name: "After" } });
    const changed = await api(`/api/v1/suppliers/${id}`);
    expect(changed.text).not.toBe(first.text);
    expect(changed.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(changed.headers.get("etag")).toBe(await tagOf(changed.text));
  });

  it("is sent on a page of a list, whose If-None-Match then gives 304 without a body", async () => {
    await createSupplier("Listed");
    const page = await api("/api/v1/suppliers?per_page=5");
    const tag = page.headers.get("etag") as string;
    expect(tag).toBe(await tagOf(page.text));
    const notModified = await api("/api/v1/suppliers?per_page=5", { headers: { "if-none-match": tag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");
    expect(notModified.headers.get("etag")).toBe(tag);
    expect(notModified.headers.get("content-type")).toBeNull();
  });

  it("is not sent on a write's answer", async () => {
    const created = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Written", internal_id: unique("etag") },
    });
    expect(created.headers.get("content-type")).toBe("application/json");
    expect(created.headers.get("etag")).toBeNull();
  });
});

describe("ETag middleware", () => {
  /** A bare app with the request context and the ETag, answering `/x` with `answer`. */
  function appAnswering(answer: (c: Context<AppEnv>) => Response) {
    const app = new Hono<AppEnv>();
    app.use("*", requestContext);
    app.use("*", etag);
    app.get("/x", answer);
    return app;
  }

  afterEach(() => vi.restoreAllMocks());

  it("tags c.json's answer from the bytes it encoded, without cloning the response", async () => {
    const clone = vi.spyOn(Response.prototype, "clone");
    const app = appAnswering((c) => c.json({ name: "Ñandú", n: [1, 2, 3] }));
    const res = await app.request("/x");
    const text = await res.text();
    expect(text).toBe(JSON.stringify({ name: "Ñandú", n: [1, 2, 3] }));
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("etag")).toBe(await tagOf(text));
    expect(clone).not.toHaveBeenCalled();
  });

  it("keeps c.json's status and headers", async () => {
    const app = appAnswering((c) => c.json({ ok: true }, 202, { "X-Extra": "1" }));
    const res = await app.request("/x");
    expect(res.status).toBe(202);
    expect(res.headers.get("x-extra")).toBe("1");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("etag")).toBeNull();
  });

  it("tags a JSON answer built some other way from a clone of its body", async () => {
    const body = JSON.stringify({ built: "by hand", emoji: "🚚" });
    const app = appAnswering(
      () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
    );
    const res = await app.request("/x");
    expect(await res.text()).toBe(body);
    expect(res.headers.get("etag")).toBe(await tagOf(body));
  });
});
