import { describe, expect, it } from "vitest";
import { RouteTable } from "../../src/http/route-table.ts";
import { api } from "../support/api.ts";
import { KEYS } from "../support/keys.ts";

describe("errors", () => {
  it("renders problem JSON with a request id that matches the X-Request-Id header", async () => {
    const res = await api("/api/v1/brands?nope=1");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json).toMatchObject({
      type: "https://storefront.dev/problems/validation",
      title: "Invalid request",
      status: 400,
      code: "unknown_parameter",
      request_id: res.headers.get("x-request-id"),
    });
  });

  it("gives every response its own X-Request-Id and nosniff", async () => {
    const a = await api("/api/v1/store");
    const b = await api("/api/v1/store");
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers an unknown route with 404 problem JSON, even without a key", async () => {
    const res = await api("/api/v1/nothing-here", { key: null });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });

  it("answers a known path with another method with 405 and Allow, before auth", async () => {
    const res = await api("/api/v1/brands/1", { method: "DELETE", key: null });
    expect(res.status).toBe(405);
    expect(res.json.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("PATCH");
  });
});

describe("route table", () => {
  it("lets literal segments win over {id}", () => {
    const table = new RouteTable();
    const meta = { scope: "read", bodyLimit: "none", budget: "read" } as const;
    table.add({ ...meta, method: "GET", path: "/api/v1/products/{id}" });
    table.add({ ...meta, method: "POST", path: "/api/v1/products/bulk" });
    expect(table.match("GET", "/api/v1/products/bulk")).toEqual({ allow: ["POST"] });
    expect(table.match("GET", "/api/v1/products/7")).toMatchObject({
      meta: { path: "/api/v1/products/{id}" },
    });
    expect(table.match("GET", "/api/v1/products/7/x")).toBeNull();
  });
});

describe("authentication", () => {
  it("answers 401 with WWW-Authenticate when the key is missing", async () => {
    const res = await api("/api/v1/brands", { key: null });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("unauthorized");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("answers 401 for a malformed, unknown or revoked key", async () => {
    for (const authorization of ["Basic abc", "Bearer", "Bearer sfk_unknown_key_value"]) {
      const res = await api("/api/v1/brands", { key: null, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
    }
    expect((await api("/api/v1/brands", { key: "revoked" })).status).toBe(401);
  });

  it("matches the auth scheme case-insensitively (RFC 9110 §11.1), the key itself exactly", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const res = await api("/api/v1/store", {
        key: null,
        headers: { authorization: `${scheme} ${KEYS.read}` },
      });
      expect(res.status, scheme).toBe(200);
    }
    const wrongCase = await api("/api/v1/store", {
      key: null,
      headers: { authorization: `bearer ${KEYS.read.toUpperCase()}` },
    });
    expect(wrongCase.status).toBe(401);
  });

  it("answers 403 when the key lacks the scope; scopes are independent", async () => {
    const write = await api("/api/v1/brands", {
      method: "POST",
      key: "read",
      body: { name: "x", translations: {} },
    });
    expect(write.status).toBe(403);
    expect(write.json.code).toBe("forbidden");
    expect((await api("/api/v1/brands", { key: "write" })).status).toBe(403);
    expect((await api("/api/v1/brands", { key: "admin" })).status).toBe(403);
    expect((await api("/api/v1/brands", { key: "read" })).status).toBe(200);
  });

  it("checks auth before body problems (401 beats 415)", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      key: null,
      body: "x",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(401);
  });
});

describe("write bodies", () => {
  it("answers 415 for a body that is not JSON", async () => {
    const res = await api("/api/v1/suppliers", {
      method: "POST",
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.json.code).toBe("unsupported_media_type");
  });

  it("answers 413 for a write body over 1 MiB", async () => {
    const res = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "x".repeat(1024 * 1024 + 10), internal_id: "big" },
    });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe("payload_too_large");
  });

  it("answers 400 invalid_body for malformed JSON", async () => {
    const res = await api("/api/v1/suppliers", { method: "POST", body: "{not json" });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
  });

  it("refuses unknown body fields", async () => {
    const res = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "x", internal_id: "y", colour: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ location: "body", path: "colour", message: "unknown field" }]);
  });
});

describe("conditional GET", () => {
  it("sends a weak ETag and answers 304 to a matching If-None-Match", async () => {
    const first = await api("/api/v1/store");
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^W\/"/);
    const second = await api("/api/v1/store", { headers: { "if-none-match": tag as string } });
    expect(second.status).toBe(304);
    expect(second.text).toBe("");
    const strong = await api("/api/v1/store", { headers: { "if-none-match": (tag as string).slice(2) } });
    expect(strong.status).toBe(304);
  });

  it("answers 200 when the ETag does not match", async () => {
    const res = await api("/api/v1/store", { headers: { "if-none-match": 'W/"other"' } });
    expect(res.status).toBe(200);
  });
});

describe("suppliers have their own fixed and default fields", () => {
  it("keeps name fixed and id default", async () => {
    const created = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Lit", internal_id: "LIT-1", description: "d" },
    });
    const res = await api(`/api/v1/suppliers/${created.json.id}?fields=description`);
    expect(res.json).toEqual({ name: "Lit", description: "d" });
  });
});

describe("store", () => {
  it("returns the return policy, locales, markets and translations of the primary locale", async () => {
    const res = await api("/api/v1/store");
    expect(res.status).toBe(200);
    expect(res.json.primary_locale).toBe("es-ES");
    expect(res.json.enabled_locales).toHaveLength(14);
    expect(res.json.markets).toContainEqual({
      key: "market_en",
      currency: "GBP",
      locales: ["en-GB", "nl-NL", "sv-SE", "da-DK", "pl-PL", "el-GR", "hr-HR"],
      countries: expect.arrayContaining(["GB", "IE"]),
    });
    expect(Object.keys(res.json.translations)).toEqual(["es-ES"]);
    expect(res.json.return_policy.return_days).toBe(30);
  });

  it("takes locales but not fields", async () => {
    const res = await api("/api/v1/store?locales=en-GB,fr-FR");
    expect(Object.keys(res.json.translations)).toEqual(["en-GB", "fr-FR"]);
    expect((await api("/api/v1/store?fields=name")).json.code).toBe("unknown_parameter");
  });
});

describe("D1 sessions", () => {
  it("returns an x-d1-bookmark and accepts it back", async () => {
    const write = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Bm", internal_id: "BM-1" },
    });
    const bookmark = write.headers.get("x-d1-bookmark");
    expect(bookmark).toBeTruthy();
    const read = await api(`/api/v1/suppliers/${write.json.id}`, {
      headers: { "x-d1-bookmark": bookmark as string },
    });
    expect(read.status).toBe(200);
  });

  it("falls back to the primary for a bookmark D1 rejects", async () => {
    const read = await api("/api/v1/suppliers", { headers: { "x-d1-bookmark": "not-a-real-bookmark" } });
    expect(read.status).toBe(200);
  });
});
