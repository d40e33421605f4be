import { env } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client.ts";
import type { AppEnv } from "../../src/env.ts";
import { renderError } from "../../src/http/errors.ts";
import {
  IDEMPOTENCY_LEASE_MS,
  purgeExpiredIdempotencyKeys,
  runIdempotent,
} from "../../src/http/idempotency.ts";
import { IMAGE_TIMEOUT_MS } from "../../src/images/store.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

const SUPPLIERS = "/api/v1/suppliers";

const createSupplier = (body: unknown, idempotencyKey?: string, key: "all" | "write" = "all") =>
  api(SUPPLIERS, {
    method: "POST",
    key,
    body,
    headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
  });

async function suppliersWithInternalId(internalId: string) {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM suppliers WHERE internal_id = ?")
    .bind(internalId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * A bare app running `runIdempotent` around a handler the test controls (API key id 1000), on the
 * given D1 database (the test's own by default).
 */
function harness(handler: () => Promise<Response>, database: D1Database = env.DB) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("requestId", crypto.randomUUID());
    c.set("dbStats", { roundTrips: 0, rowsRead: 0 });
    c.set("db", createDb(database));
    c.set("apiKey", { id: 1000, scopes: ["write"] });
    c.set("rawBody", new Uint8Array(await c.req.arrayBuffer()));
    await next();
  });
  app.post("*", (c) => runIdempotent(c, handler));
  app.onError(renderError);
  return (path: string, key: string, body = "{}") =>
    app.request(
      path,
      { method: "POST", body, headers: { "content-type": "application/json", "Idempotency-Key": key } },
      env,
    );
}

/** The test's D1 database, except that every statement matching `refused` fails as D1 would. */
function failingOn(refused: RegExp): D1Database {
  return new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          if (refused.test(query)) throw new Error(`D1_ERROR: refused by the test: ${query.slice(0, 40)}`);
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const claimRow = (key: string) =>
  env.DB.prepare("SELECT state, expires_at FROM idempotency_keys WHERE api_key_id = 1000 AND key = ?")
    .bind(key)
    .first<{ state: string; expires_at: string }>();

/**
 * Sends a request whose work starts (so it owns the claim) and never finishes, as when the isolate
 * is killed mid-request: the claim is left in flight with nobody to finish or release it.
 */
async function strandClaim(key: string, body = "{}") {
  let started: () => void = () => {};
  const working = new Promise<void>((resolve) => {
    started = resolve;
  });
  const send = harness(() => {
    started();
    return new Promise<Response>(() => {});
  });
  void send("/things", key, body);
  await working;
  expect((await claimRow(key))?.state).toBe("in_flight");
}

describe("Idempotency-Key", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("same key and same body replays the first answer (status, body, Location) without doing the work again", async () => {
    const key = unique("idem");
    const body = { name: "Replay Co", internal_id: unique("SUP") };
    const first = await createSupplier(body, key);
    const second = await createSupplier(body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(second.headers.get("idempotency-replayed")).toBe("true");
    expect(second.headers.get("content-type")).toContain("application/json");
    expect(await suppliersWithInternalId(body.internal_id)).toBe(1);
  });

  it("a replay carries its own X-Request-Id", async () => {
    const key = unique("idem");
    const body = { name: "Request Id Co", internal_id: unique("SUP") };
    const first = await createSupplier(body, key);
    const second = await createSupplier(body, key);
    expect(second.headers.get("x-request-id")).toBeTruthy();
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("same key with a different body is 422 idempotency_key_reused", async () => {
    const key = unique("idem");
    const first = await createSupplier({ name: "First", internal_id: unique("SUP") }, key);
    const other = { name: "Second", internal_id: unique("SUP") };
    const second = await createSupplier(other, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(422);
    expect(second.json.code).toBe("idempotency_key_reused");
    expect(await suppliersWithInternalId(other.internal_id)).toBe(0);
  });

  it("keys are scoped to the API key: another key's identical key is independent", async () => {
    const key = unique("idem");
    const first = await createSupplier({ name: "Scoped", internal_id: unique("SUP") }, key, "all");
    const second = await createSupplier({ name: "Scoped", internal_id: unique("SUP") }, key, "write");
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotency-replayed")).toBeNull();
    expect(second.json.id).not.toBe(first.json.id);
  });

  it("an invalid body (400) is not stored: a corrected retry with the same key succeeds", async () => {
    const key = unique("idem");
    const bad = await createSupplier({ name: "No internal id" }, key);
    expect(bad.status).toBe(400);
    const body = { name: "Corrected", internal_id: unique("SUP") };
    const retry = await createSupplier(body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
    expect(await suppliersWithInternalId(body.internal_id)).toBe(1);
  });

  it("a failed write (409 duplicate internal_id) is not stored: a corrected retry with the same key succeeds", async () => {
    const taken = unique("SUP");
    expect((await createSupplier({ name: "Owner", internal_id: taken })).status).toBe(201);
    const key = unique("idem");
    const conflict = await createSupplier({ name: "Dup", internal_id: taken }, key);
    expect(conflict.status).toBe(409);
    const body = { name: "Dup fixed", internal_id: unique("SUP") };
    const retry = await createSupplier(body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
  });

  it("concurrent identical requests create exactly one supplier; the others replay or get 409 in flight", async () => {
    const key = unique("idem");
    const body = { name: "Concurrent", internal_id: unique("SUP") };
    const results = await Promise.all(Array.from({ length: 5 }, () => createSupplier(body, key)));
    expect(await suppliersWithInternalId(body.internal_id)).toBe(1);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get("idempotency-replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      if (r.status === 201) {
        expect(r.headers.get("idempotency-replayed")).toBe("true");
        expect(r.json).toEqual(fresh[0]?.json);
      } else {
        expect(r.status).toBe(409);
        expect(r.json.code).toBe("conflict");
        expect(r.headers.get("retry-after")).toBe("1");
      }
    }
  });

  it("a repeat while the first is in flight is 409 conflict with Retry-After: 1", async () => {
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const send = harness(async () => {
      await gate;
      return Response.json({ ok: true }, { status: 201 });
    });
    const key = unique("idem");
    const first = send("/things", key);
    // Let the first request claim the key before the second arrives.
    for (let i = 0; i < 50; i++) {
      const row = await env.DB.prepare(
        "SELECT state FROM idempotency_keys WHERE api_key_id = 1000 AND key = ?",
      )
        .bind(key)
        .first();
      if (row) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const second = await send("/things", key);
    expect(second.status).toBe(409);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(((await second.json()) as { code: string }).code).toBe("conflict");
    finish();
    expect((await first).status).toBe(201);
  });

  it("an in-flight claim whose lease ran out (the request died) is taken over by a retry, which does the work once", async () => {
    const key = unique("idem");
    await strandClaim(key);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + IDEMPOTENCY_LEASE_MS + 1000);
    let runs = 0;
    const send = harness(async () => {
      runs++;
      return Response.json({ run: runs }, { status: 201 });
    });
    const retry = await send("/things", key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
    const again = await send("/things", key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.json()).toEqual({ run: 1 });
    expect(runs).toBe(1);
  });

  it("a request that outlived its lease neither stores into nor releases the claim a retry took over", async () => {
    let finishSlow: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finishSlow = resolve;
    });
    const slow = harness(async () => {
      await gate;
      return Response.json({ who: "slow" }, { status: 201 });
    });
    const key = unique("idem");
    const slowAnswer = slow("/things", key);
    for (let i = 0; i < 100 && !(await claimRow(key)); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await claimRow(key)).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + IDEMPOTENCY_LEASE_MS + 1000);
    await strandClaim(key);
    const takenOver = await claimRow(key);
    finishSlow();
    expect((await slowAnswer).status).toBe(201);
    expect(await claimRow(key)).toEqual(takenOver);
  });

  it("an in-flight claim within its lease still answers 409 with Retry-After: 1", async () => {
    const key = unique("idem");
    await strandClaim(key);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + IDEMPOTENCY_LEASE_MS - 5000);
    let runs = 0;
    const send = harness(async () => {
      runs++;
      return Response.json({}, { status: 201 });
    });
    const retry = await send("/things", key);
    expect(retry.status).toBe(409);
    expect(retry.headers.get("retry-after")).toBe("1");
    expect(runs).toBe(0);
  });

  it("the in-flight lease is longer than the slowest synchronous write (a 5 s image download and a 30 s D1 batch)", () => {
    const d1BatchLimitMs = 30_000;
    expect(IDEMPOTENCY_LEASE_MS).toBeGreaterThan(IMAGE_TIMEOUT_MS + d1BatchLimitMs);
  });

  it("a stored answer replays for 24 hours from when it was stored, not only for the lease", async () => {
    let runs = 0;
    const send = harness(async () => {
      runs++;
      return Response.json({ run: runs }, { status: 201 });
    });
    const key = unique("idem");
    expect((await send("/things", key)).status).toBe(201);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 23 * 60 * 60 * 1000);
    const replay = await send("/things", key);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(await replay.json()).toEqual({ run: 1 });
    vi.setSystemTime(Date.now() + 2 * 60 * 60 * 1000);
    const fresh = await send("/things", key);
    expect(fresh.headers.get("idempotency-replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("a claim whose answer could not be stored is released, so a retry runs instead of getting 409", async () => {
    const key = unique("idem");
    let runs = 0;
    const work = async () => {
      runs++;
      return Response.json({ run: runs }, { status: 201 });
    };
    const storeFails = harness(work, failingOn(/^update "idempotency_keys"/i));
    const first = await storeFails("/things", key);
    expect(first.status).toBe(201);
    expect(await claimRow(key)).toBeNull();
    const retry = await harness(work)("/things", key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("a stored answer never holds a top-level secret", async () => {
    const send = harness(async () =>
      Response.json({ id: 7, url: "https://example.test/hook", secret: "whsec_abc" }, { status: 201 }),
    );
    const key = unique("idem");
    const first = await send("/webhooks", key);
    expect(((await first.json()) as { secret?: string }).secret).toBe("whsec_abc");
    const replay = await send("/webhooks", key);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(await replay.json()).toEqual({ id: 7, url: "https://example.test/hook" });
  });

  it("a key longer than 255 characters is 400 invalid_parameter on the header", async () => {
    const res = await createSupplier({ name: "Long key", internal_id: unique("SUP") }, "k".repeat(256));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
    expect(res.json.errors).toEqual([
      { location: "header", path: "idempotency-key", message: expect.any(String) },
    ]);
  });

  it("an empty key is 400 invalid_parameter", async () => {
    const res = await createSupplier({ name: "Empty key", internal_id: unique("SUP") }, "");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("an expired key is treated as new", async () => {
    const key = unique("idem");
    const first = await createSupplier({ name: "Old", internal_id: unique("SUP") }, key);
    expect(first.status).toBe(201);
    await env.DB.prepare("UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00Z' WHERE key = ?")
      .bind(key)
      .run();
    const body = { name: "New", internal_id: unique("SUP") };
    const second = await createSupplier(body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotency-replayed")).toBeNull();
    expect(await suppliersWithInternalId(body.internal_id)).toBe(1);
  });

  it("purgeExpiredIdempotencyKeys deletes only expired rows, in a bounded batch", async () => {
    const insert = (key: string, expiresAt: string) =>
      env.DB.prepare(
        "INSERT INTO idempotency_keys (api_key_id, key, fingerprint, state, expires_at) VALUES (2000, ?, 'f', 'done', ?)",
      ).bind(key, expiresAt);
    await env.DB.batch([
      insert("old-1", "1999-12-30T00:00:00Z"),
      insert("old-2", "1999-12-31T00:00:00Z"),
      insert("old-3", "2000-01-01T00:00:00Z"),
      insert("live", "2000-01-03T00:00:00Z"),
    ]);
    const now = "2000-01-02T00:00:00Z";
    expect(await purgeExpiredIdempotencyKeys(env.DB, now, 2)).toBe(2);
    expect(await purgeExpiredIdempotencyKeys(env.DB, now)).toBe(1);
    const { results } = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE api_key_id = 2000").all<{
      key: string;
    }>();
    expect(results.map((r) => r.key)).toEqual(["live"]);
  });
});
