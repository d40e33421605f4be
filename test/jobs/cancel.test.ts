import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { WebhookMessage } from "../../src/async/deliveries/types.ts";
import { DELIVERED_EVENTS, WEBHOOK_EVENT_NAMES } from "../../src/resources/webhooks/webhooks.events.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { jobLogs, quietEnv, stageJob } from "../support/jobs.ts";
import { deliverToQueue, recordingQueue } from "../support/queues.ts";

/**
 * The final status each canceled job had when the route ran its finalize hook, read from the hook's
 * effect: a subscription to every event, and the webhooks queue recording the delivery enqueued for
 * the event that status fires.
 */
const finalized: Record<string, string> = {};
const webhooks = recordingQueue<WebhookMessage>();
const hookEnv = { ...env, WEBHOOKS_QUEUE: webhooks.queue };

beforeAll(async () => {
  await env.DB.prepare(
    "INSERT INTO webhooks (url, events, secret) VALUES ('https://hooks.test/cancel', ?, 'whsec_x')",
  )
    .bind(JSON.stringify(WEBHOOK_EVENT_NAMES))
    .run();
});

const quiet = quietEnv();

async function variantsJob(n: number) {
  const p = await createProduct({ variants: Array.from({ length: n }, () => ({})) });
  const jobId = await stageJob(
    "variants_bulk_update",
    p.variantIds.map((id, i) => ({ id, warehouse_stock: 500 + i })),
    { options: { match_by: "id" } },
    2,
  );
  return { jobId, variantIds: p.variantIds };
}

async function cancel(jobId: string, key?: "read" | "write") {
  const res = await api(`/api/v1/jobs/${jobId}/cancel`, {
    method: "POST",
    bindings: hookEnv,
    ...(key ? { key } : {}),
  });
  for (const { body } of webhooks.batched.splice(0)) {
    finalized[body.jobId] = DELIVERED_EVENTS.named(body.eventType).jobStatus;
  }
  return res;
}

async function stocks(ids: number[]) {
  const rows = await env.DB.prepare(
    `SELECT warehouse_stock FROM variants WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  )
    .bind(JSON.stringify(ids))
    .all<{ warehouse_stock: number }>();
  return rows.results.map((r) => r.warehouse_stock);
}

describe("POST /jobs/{id}/cancel", () => {
  it("ends a pending job failed: every record counted failed, one OTHER entry saying it was canceled", async () => {
    const { jobId, variantIds } = await variantsJob(3);
    const res = await cancel(jobId);
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({
      id: jobId,
      status: "failed",
      summary: {
        total_records: 3,
        processed_records: 3,
        succeeded_records: 0,
        failed_records: 3,
        log_error_count: 1,
      },
    });
    expect(res.json.finished_at).toMatch(/Z$/);
    const logs = await jobLogs(jobId);
    expect(logs.map((l) => [l.severity, l.code])).toEqual([
      ["ERROR", "OTHER"],
      ["INFO", null],
    ]);
    expect(logs[0]?.message).toMatch(/canceled/);
    expect(await stocks(variantIds)).toEqual([5, 5, 5]);
    expect(finalized[jobId]).toBe("failed");
  });

  it("stops a running job at the chunk boundary: applied chunks stay, later ones never apply", async () => {
    const { jobId, variantIds } = await variantsJob(5);
    await deliverToQueue("storefront-jobs", { jobId, chunk: 0 }, quiet);
    const res = await cancel(jobId);
    expect(res.status).toBe(202);
    expect(res.json.status).toBe("done_with_errors");
    expect(res.json.summary).toMatchObject({ processed_records: 5, succeeded_records: 2, failed_records: 3 });
    // The message of the next chunk was already queued: it arrives and changes nothing.
    await deliverToQueue("storefront-jobs", { jobId, chunk: 1 }, quiet);
    await deliverToQueue("storefront-jobs", { jobId, chunk: 2 }, quiet);
    expect(await stocks(variantIds)).toEqual([500, 501, 5, 5, 5]);
    expect((await api(`/api/v1/jobs/${jobId}`)).json.summary).toEqual(res.json.summary);
    expect(finalized[jobId]).toBe("done_with_errors");
  });

  it("is 409 for a job already final", async () => {
    const { jobId } = await variantsJob(1);
    expect((await cancel(jobId)).status).toBe(202);
    const again = await cancel(jobId);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("conflict");
  });

  it("is 404 for an unknown job and 403 without the write scope", async () => {
    expect((await cancel(crypto.randomUUID())).status).toBe(404);
    const { jobId } = await variantsJob(1);
    expect((await cancel(jobId, "read")).status).toBe(403);
    expect((await api(`/api/v1/jobs/${jobId}`)).json.status).toBe("pending");
  });

  it("replays its answer for a repeated Idempotency-Key", async () => {
    const { jobId } = await variantsJob(1);
    const headers = { "Idempotency-Key": `cancel-${jobId}` };
    const first = await api(`/api/v1/jobs/${jobId}/cancel`, { method: "POST", headers });
    const second = await api(`/api/v1/jobs/${jobId}/cancel`, { method: "POST", headers });
    expect(second.status).toBe(202);
    expect(second.headers.get("idempotency-replayed")).toBe("true");
    expect(second.json).toEqual(first.json);
  });
});

describe("POST /jobs/{id}/cancel runs the body checks in the contract's order", () => {
  const unknownJob = () => `/api/v1/jobs/${crypto.randomUUID()}/cancel`;

  it("answers 415 for a text/plain body before looking up the job", async () => {
    const res = await api(unknownJob(), {
      method: "POST",
      body: "please cancel",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.json.code).toBe("unsupported_media_type");
  });

  it("answers 413 for a body over 1 MiB before looking up the job", async () => {
    const res = await api(unknownJob(), { method: "POST", body: { reason: "x".repeat(1.1 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe("payload_too_large");
  });

  it("answers 400 for a body other than an empty JSON object before looking up the job", async () => {
    const res = await api(unknownJob(), { method: "POST", body: { reason: "x" } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ location: "body", path: "reason", message: "unknown field" }]);
    expect((await api(unknownJob(), { method: "POST", body: "{not json" })).json.code).toBe("invalid_body");
  });

  it("cancels with no body, an empty JSON body or an empty JSON object", async () => {
    for (const body of [undefined, "", {}]) {
      const { jobId } = await variantsJob(1);
      const res = await api(`/api/v1/jobs/${jobId}/cancel`, {
        method: "POST",
        body,
        ...(body === undefined ? {} : { headers: { "content-type": "application/json" } }),
      });
      expect(res.status, JSON.stringify(body)).toBe(202);
      expect(res.json.status).toBe("failed");
    }
  });
});
