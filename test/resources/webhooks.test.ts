import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { CRON_TASKS } from "../../src/cron.ts";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

const EVENTS = ["job.done", "job.done_with_errors", "job.failed"];
const receiverUrl = () => `${inject("fixtureOrigin")}/webhooks/ok/${unique("api")}`;

async function createWebhook(body: Record<string, unknown> = {}) {
  const res = await api("/api/v1/webhooks", {
    method: "POST",
    body: { url: receiverUrl(), events: EVENTS, ...body },
  });
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${res.text}`);
  return res.json as Record<string, any> & { id: number; secret: string };
}

const storedSecret = async (id: number) =>
  (await env.DB.prepare("SELECT secret FROM webhooks WHERE id = ?").bind(id).first<{ secret: string }>())
    ?.secret;

/** The problem's `errors` for a body that should be refused. */
async function refusal(body: Record<string, unknown>) {
  const res = await api("/api/v1/webhooks", { method: "POST", body: { events: EVENTS, ...body } });
  expect(res.status, res.text).toBe(400);
  expect(res.json.code).toBe("invalid_body");
  return res.json.errors as { location: string; path: string; message: string }[];
}

/** Calls the app with `ENVIRONMENT=production`, as the deployed Worker runs. */
const apiInProduction = (path: string, body: unknown) =>
  api(path, { method: "POST", key: "admin", body, bindings: { ...env, ENVIRONMENT: "production" } });

describe("webhook subscriptions: scopes", () => {
  const routes = (id: number): [string, string, unknown?][] => [
    ["GET", "/api/v1/webhooks"],
    ["POST", "/api/v1/webhooks", { url: receiverUrl(), events: EVENTS }],
    ["GET", `/api/v1/webhooks/${id}`],
    ["PATCH", `/api/v1/webhooks/${id}`, { description: "x" }],
    ["GET", `/api/v1/webhooks/${id}/deliveries`],
    ["DELETE", `/api/v1/webhooks/${id}`],
  ];

  it("every webhooks route, GET included, is 403 for read-only and write-only keys", async () => {
    const { id } = await createWebhook();
    for (const key of ["read", "write"] as const) {
      for (const [method, path, body] of routes(id)) {
        const res = await api(path, { method, body, key });
        expect(res.status, `${key} ${method} ${path}`).toBe(403);
        expect(res.json.code).toBe("forbidden");
      }
    }
  });

  it("every webhooks route is 401 without an API key", async () => {
    const { id } = await createWebhook();
    for (const [method, path, body] of routes(id)) {
      const res = await api(path, { method, body, key: null });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("an admin-only key may use every webhooks route", async () => {
    const { id } = await createWebhook();
    for (const [method, path, body] of routes(id)) {
      const res = await api(path, { method, body, key: "admin" });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    }
  });
});

describe("webhook subscriptions: create, read, update, delete", () => {
  it("POST answers 201 with Location, the representation and a whsec_ secret of 32 bytes", async () => {
    const url = receiverUrl();
    const res = await api("/api/v1/webhooks", {
      method: "POST",
      body: { url, events: ["job.failed", "job.done"], description: "ERP monitor" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`https://api.test/api/v1/webhooks/${res.json.id}`);
    expect(res.json).toEqual({
      id: expect.any(Number),
      url,
      events: ["job.failed", "job.done"],
      description: "ERP monitor",
      status: "active",
      disabled_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      updated_at: expect.stringMatching(/Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(atob(res.json.secret.slice("whsec_".length))).toHaveLength(32);
  });

  it("description is optional and null when absent", async () => {
    const created = await createWebhook();
    expect(created.description).toBeNull();
  });

  it("the secret is shown once: GET one and the list never show it", async () => {
    const created = await createWebhook();
    const one = await api(`/api/v1/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    const { secret: _secret, ...representation } = created;
    expect(one.json).toEqual(representation);
    expect(one.text).not.toContain(created.secret);
    const list = await api("/api/v1/webhooks?per_page=100");
    expect(list.text).not.toContain("secret");
    expect(list.text).not.toContain(created.secret);
  });

  it("PATCH with rotate_secret: true returns a new secret once; it replaces the old one", async () => {
    const created = await createWebhook();
    const rotated = await api(`/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      body: { rotate_secret: true },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.secret);
    expect(await storedSecret(created.id)).toBe(rotated.json.secret);
    const again = await api(`/api/v1/webhooks/${created.id}`);
    expect(again.json.secret).toBeUndefined();
    expect(again.text).not.toContain(rotated.json.secret);
  });

  it("PATCH without rotate_secret changes only the fields sent and shows no secret", async () => {
    const created = await createWebhook({ description: "before" });
    const url = receiverUrl();
    const res = await api(`/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      body: { url, events: ["job.failed"], rotate_secret: false },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ url, events: ["job.failed"], description: "before", status: "active" });
    expect(res.json.secret).toBeUndefined();
    expect(await storedSecret(created.id)).toBe(created.secret);
    const cleared = await api(`/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      body: { description: null },
    });
    expect(cleared.json.description).toBeNull();
  });

  it("PATCH status active re-enables a disabled subscription: disabled_at and the failing streak clear", async () => {
    const { id } = await createWebhook();
    await env.DB.prepare(
      "UPDATE webhooks SET status = 'disabled', disabled_at = '2026-01-04T00:00:00Z', failing_since = '2026-01-01T00:00:00Z' WHERE id = ?",
    )
      .bind(id)
      .run();
    const before = await api(`/api/v1/webhooks/${id}`);
    expect(before.json).toMatchObject({ status: "disabled", disabled_at: "2026-01-04T00:00:00Z" });
    const res = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { status: "active" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "active", disabled_at: null });
    const row = await env.DB.prepare("SELECT failing_since FROM webhooks WHERE id = ?").bind(id).first();
    expect(row?.failing_since).toBeNull();
  });

  it("PATCH status disabled pauses a subscription with disabled_at", async () => {
    const { id } = await createWebhook();
    const res = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { status: "disabled" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "disabled", disabled_at: expect.stringMatching(/Z$/) });
  });

  it("PATCH events [] is 400: the list must stay non-empty", async () => {
    const { id } = await createWebhook();
    const res = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { events: [] } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(res.json.errors).toEqual([expect.objectContaining({ location: "body", path: "events" })]);
  });

  it("PATCH refuses unknown fields and a null url or status", async () => {
    const { id } = await createWebhook();
    const res = await api(`/api/v1/webhooks/${id}`, {
      method: "PATCH",
      body: { secret: "whsec_mine", url: null, status: null },
    });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(["secret", "status", "url"]);
  });

  it("DELETE answers 204; the subscription is then 404", async () => {
    const { id } = await createWebhook();
    const res = await api(`/api/v1/webhooks/${id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api(`/api/v1/webhooks/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("an unknown id is 404 on GET, PATCH, DELETE and the deliveries list; a bad id is 400", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/v1/webhooks/987654"],
      ["PATCH", "/api/v1/webhooks/987654", { description: "x" }],
      ["DELETE", "/api/v1/webhooks/987654"],
      ["GET", "/api/v1/webhooks/987654/deliveries"],
    ] as [string, string, unknown?][]) {
      const res = await api(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.code).toBe("not_found");
    }
    expect((await api("/api/v1/webhooks/abc")).status).toBe(400);
  });

  it("a replayed POST with the same Idempotency-Key returns the 201 without the secret", async () => {
    const key = unique("idem");
    const body = { url: receiverUrl(), events: EVENTS };
    const first = await api("/api/v1/webhooks", {
      method: "POST",
      body,
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(201);
    expect(first.json.secret).toMatch(/^whsec_/);
    const replay = await api("/api/v1/webhooks", {
      method: "POST",
      body,
      headers: { "idempotency-key": key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.json.id).toBe(first.json.id);
    expect(replay.json.secret).toBeUndefined();
    expect(replay.text).not.toContain(first.json.secret);
  });
});

describe("webhook subscriptions: events", () => {
  it("events must be a non-empty subset of job.done, job.done_with_errors, job.failed without repeats", async () => {
    for (const events of [[], ["job.started"], ["job.done", "job.done"], "job.done", null]) {
      const errors = await refusal({ url: receiverUrl(), events });
      expect(
        errors.map((e) => e.path.split(".")[0]),
        JSON.stringify(events),
      ).toEqual(["events"]);
    }
  });

  it("events is required", async () => {
    const res = await api("/api/v1/webhooks", { method: "POST", body: { url: receiverUrl() } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ location: "body", path: "events" })]);
  });
});

describe("webhook subscriptions: URL rules", () => {
  const cases: [string, RegExp][] = [
    ["http://example.com/hook", /https/],
    ["https://10.0.0.1/hook", /private/],
    ["https://192.168.1.20/hook", /private/],
    ["https://169.254.169.254/latest/meta-data/", /metadata/],
    ["https://[fe80::1]/hook", /link-local/],
    ["https://user:pass@example.com/hook", /credentials/],
    ["ftp://example.com/hook", /https/],
    ["not a url", /URL/],
  ];

  for (const [url, message] of cases) {
    it(`refuses ${url} with 400 invalid_body on url`, async () => {
      const errors = await refusal({ url });
      expect(errors).toEqual([{ location: "body", path: "url", message: expect.stringMatching(message) }]);
    });
  }

  it("one 400 lists a refused url together with the other body problems", async () => {
    const errors = await refusal({ url: "https://10.0.0.1/", events: [] });
    expect(errors.map((e) => e.path).sort()).toEqual(["events", "url"]);
  });

  it("PATCH applies the same URL rules", async () => {
    const { id } = await createWebhook();
    const res = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { url: "https://10.1.2.3/" } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ path: "url" })]);
  });

  it("plain http to a loopback host is accepted in development", async () => {
    const created = await createWebhook({ url: "http://127.0.0.1:9/hook" });
    expect(created.url).toBe("http://127.0.0.1:9/hook");
    expect((await createWebhook({ url: "http://localhost:9/hook" })).status).toBe("active");
  });

  it("outside development loopback targets are refused, http and https alike", async () => {
    for (const url of ["http://127.0.0.1:9/hook", "https://[::1]/hook", "http://localhost/hook"]) {
      const res = await apiInProduction("/api/v1/webhooks", { url, events: EVENTS });
      expect(res.status, url).toBe(400);
      expect(res.json.code).toBe("invalid_body");
      expect(res.json.errors).toEqual([
        { location: "body", path: "url", message: "must not point to a loopback address" },
      ]);
    }
  });

  it("outside development plain http to a public host is refused with a plain message", async () => {
    const res = await apiInProduction("/api/v1/webhooks", { url: "http://example.com/", events: EVENTS });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ location: "body", path: "url", message: "must use https" }]);
  });

  it("https to a public host is accepted in production", async () => {
    const res = await apiInProduction("/api/v1/webhooks", {
      url: "https://example.com/hook",
      events: EVENTS,
    });
    expect(res.status).toBe(201);
    expect(res.json.secret).toMatch(/^whsec_/);
  });
});

describe("webhook subscriptions: lists", () => {
  it("GET /webhooks is a paginated list sorted by id, with id_desc", async () => {
    const a = await createWebhook();
    const b = await createWebhook();
    const asc = await api("/api/v1/webhooks?per_page=100");
    expect(asc.status).toBe(200);
    expect(asc.json.pagination).toMatchObject({ current_page: 1, per_page: 100 });
    const listed = ids(asc);
    expect(listed).toEqual([...listed].sort((x: number, y: number) => x - y));
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    const desc = await api("/api/v1/webhooks?sort=id_desc&per_page=1");
    expect(desc.json.data[0].id).toBe(Math.max(...listed));
    expect(desc.json.pagination.per_page).toBe(1);
    expect(desc.json.pagination.next_page_url).toContain("page=2");
  });

  it("lists default to 50 per page, refuse per_page over 100, unknown parameters and unknown sorts", async () => {
    expect((await api("/api/v1/webhooks")).json.pagination.per_page).toBe(50);
    const over = await api("/api/v1/webhooks?per_page=101");
    expect(over.status).toBe(400);
    expect(over.json.code).toBe("invalid_parameter");
    const unknown = await api("/api/v1/webhooks?status=active");
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe("unknown_parameter");
    expect((await api("/api/v1/webhooks?sort=name_asc")).status).toBe(400);
    const { id } = await createWebhook();
    expect((await api(`/api/v1/webhooks/${id}/deliveries?sort=id_asc`)).status).toBe(400);
    expect((await api(`/api/v1/webhooks/${id}/deliveries?foo=1`)).json.code).toBe("unknown_parameter");
  });

  it("deliveries list newest first by default, oldest first with created_at_asc, only this webhook's", async () => {
    const { id } = await createWebhook();
    const other = await createWebhook();
    const jobId = crypto.randomUUID();
    const insert = (webhookId: number, attempt: number, createdAt: string, status: string) =>
      env.DB.prepare(
        `INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, job_id, attempt, status, response_status, error, duration_ms, created_at, next_retry_at)
         VALUES (?, ?, 'job.done', ?, ?, ?, ?, NULL, 12, ?, ?)`,
      ).bind(
        webhookId,
        `msg_${webhookId}`,
        jobId,
        attempt,
        status,
        status === "succeeded" ? 200 : 500,
        createdAt,
        status === "pending" ? "2026-03-01T10:00:30Z" : null,
      );
    await env.DB.batch([
      insert(id, 1, "2026-03-01T10:00:00Z", "pending"),
      insert(id, 2, "2026-03-01T10:00:31Z", "succeeded"),
      insert(other.id, 1, "2026-03-01T10:00:05Z", "succeeded"),
    ]);
    const res = await api(`/api/v1/webhooks/${id}/deliveries`);
    expect(res.status).toBe(200);
    expect(res.json.pagination).toMatchObject({ total: 2, per_page: 50 });
    expect(res.json.data).toEqual([
      {
        id: expect.any(Number),
        event_type: "job.done",
        job_id: jobId,
        attempt: 2,
        status: "succeeded",
        response_status: 200,
        error: null,
        duration_ms: 12,
        created_at: "2026-03-01T10:00:31Z",
        next_retry_at: null,
      },
      expect.objectContaining({ attempt: 1, status: "pending", next_retry_at: "2026-03-01T10:00:30Z" }),
    ]);
    const asc = await api(`/api/v1/webhooks/${id}/deliveries?sort=created_at_asc`);
    expect(asc.json.data.map((d: { attempt: number }) => d.attempt)).toEqual([1, 2]);
    const pending = await api(`/api/v1/webhooks/${id}/deliveries?status=pending&job_ids=${jobId}`);
    expect(pending.json.data.map((d: { attempt: number }) => d.attempt)).toEqual([1]);
  });

  it("deleting a subscription deletes its delivery log", async () => {
    const { id } = await createWebhook();
    await env.DB.prepare(
      `INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, job_id, attempt, status)
       VALUES (?, 'msg_cascade', 'job.done', ?, 1, 'succeeded')`,
    )
      .bind(id, crypto.randomUUID())
      .run();
    expect((await api(`/api/v1/webhooks/${id}`, { method: "DELETE" })).status).toBe(204);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("webhook deliveries: retention", () => {
  it("the hourly cron deletes delivery attempts older than 30 days and keeps newer ones", async () => {
    const { id } = await createWebhook();
    const now = Date.parse("2026-06-01T00:00:00Z");
    const insert = (messageId: string, createdAt: string) =>
      env.DB.prepare(
        `INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, job_id, attempt, status, created_at)
         VALUES (?, ?, 'job.done', ?, 1, 'succeeded', ?)`,
      ).bind(id, messageId, crypto.randomUUID(), createdAt);
    await env.DB.batch([
      insert("msg_old", "2026-04-30T23:59:59Z"),
      insert("msg_recent", "2026-05-02T00:00:01Z"),
    ]);
    await CRON_TASKS["webhook-delivery-retention"](env, now);
    const rows = await env.DB.prepare("SELECT message_id FROM webhook_deliveries WHERE webhook_id = ?")
      .bind(id)
      .all<{ message_id: string }>();
    expect(rows.results.map((r) => r.message_id)).toEqual(["msg_recent"]);
  });
});

describe("webhooks in the OpenAPI document", () => {
  it("documents each outgoing event with its signed headers and body", async () => {
    const doc = (await api("/api/v1/openapi.json", { key: null })).json;
    expect(Object.keys(doc.webhooks).sort()).toEqual(["job-done", "job-done-with-errors", "job-failed"]);
    const post = doc.webhooks["job-done"].post;
    const headers = post.parameters.filter((p: { in: string }) => p.in === "header").map((p: any) => p.name);
    expect(headers).toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]));
    expect(post.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/WebhookEvent",
    );
    expect(doc.paths["/api/v1/webhooks"].post["x-required-scope"]).toBe("admin");
    expect(doc.paths["/api/v1/webhooks/{id}/deliveries"].get["x-required-scope"]).toBe("admin");
  });
});
