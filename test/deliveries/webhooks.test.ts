import { env } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { JobRow } from "../../src/async/bulk/types.ts";
import { deliverAttempt } from "../../src/async/deliveries/consumer.ts";
import { DEAD_LETTER_ERROR } from "../../src/async/deliveries/dead-letter.ts";
import { enqueueJobWebhooks, newMessageId } from "../../src/async/deliveries/enqueue.ts";
import { buildEvent } from "../../src/async/deliveries/payload.ts";
import { MAX_ATTEMPTS, retryDelaySeconds } from "../../src/async/deliveries/retry-policy.ts";
import { sendSigned } from "../../src/async/deliveries/sender.ts";
import { signPayload } from "../../src/async/deliveries/signature.ts";
import { WEBHOOKS_DLQ_NAME, type WebhookMessage } from "../../src/async/deliveries/types.ts";
import { DELIVERED_EVENTS } from "../../src/resources/webhooks/webhooks.events.ts";
import { api } from "../support/api.ts";
import { deliverToQueue, recordingQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";
import {
  doneJob,
  failedJob,
  jobRow,
  message,
  received,
  receiverUrl,
  subscribe,
  waitForAttempts,
  waitForDeliveries,
} from "../support/webhooks.ts";

describe("webhook delivery, end to end through the real queues", () => {
  it("a finished job is POSTed to its subscriber, signed so that the standardwebhooks package verifies it", async () => {
    const { id, token, secret } = await subscribe("ok");
    const job = await doneJob();
    expect(job.status).toBe("done");
    const [delivery] = await waitForDeliveries(token, 1);
    if (!delivery) throw new Error("no delivery");
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}_\d+$/);
    const verified = new Webhook(secret).verify(delivery.body, delivery.headers) as Record<string, any>;
    const body = JSON.parse(delivery.body);
    expect(verified).toEqual(body);
    expect(body.type).toBe("job.done");
    expect(body.data.job).toEqual((await api(`/api/v1/jobs/${job.id}`)).json);
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Date.parse(body.timestamp) / 1000).toBe(Number(delivery.headers["webhook-timestamp"]));
    const [attempt] = await waitForAttempts(id, (rows) => rows.length === 1);
    expect(attempt).toMatchObject({
      event_type: "job.done",
      job_id: job.id,
      attempt: 1,
      status: "succeeded",
      response_status: 200,
      error: null,
      next_retry_at: null,
      duration_ms: expect.any(Number),
    });
  });

  it("a signature made with another secret does not verify", async () => {
    const { token } = await subscribe("ok");
    await failedJob();
    const [delivery] = await waitForDeliveries(token, 1);
    const other = `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
    expect(() => new Webhook(other).verify(delivery?.body ?? "", delivery?.headers ?? {})).toThrow();
  });

  it("only subscriptions to the job's final status receive it", async () => {
    const doneOnly = await subscribe("ok", ["job.done"]);
    const failedOnly = await subscribe("ok", ["job.failed"]);
    await failedJob();
    const [delivery] = await waitForDeliveries(failedOnly.token, 1);
    expect(JSON.parse(delivery?.body ?? "{}").type).toBe("job.failed");
    await new Promise((r) => setTimeout(r, 1500));
    expect(await received(doneOnly.token)).toEqual([]);
  });

  it("a receiver answering 500 first gets a retry with the same webhook-id, and the log shows both attempts newest first", async () => {
    const { id, token, secret } = await subscribe("flaky");
    const job = await failedJob();
    const [first, second] = await waitForDeliveries(token, 2);
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(() => new Webhook(secret).verify(second?.body ?? "", second?.headers ?? {})).not.toThrow();
    const attempts = await waitForAttempts(id, (rows) => rows.length === 2);
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 2, status: "succeeded", response_status: 200, next_retry_at: null }),
      expect.objectContaining({
        attempt: 1,
        status: "pending",
        response_status: 500,
        job_id: job.id,
        next_retry_at: expect.stringMatching(/Z$/),
      }),
    ]);
  });

  it("after the last attempt the delivery is failed and no further attempt comes", async () => {
    const job = await failedJob();
    const { id, token } = await subscribe("failing");
    const msg = message(id, job.id, MAX_ATTEMPTS - 1);
    await env.WEBHOOKS_QUEUE.send(msg, { contentType: "json" });
    const attempts = await waitForAttempts(id, (rows) => rows.length === 2);
    expect(attempts).toEqual([
      expect.objectContaining({
        attempt: MAX_ATTEMPTS,
        status: "failed",
        response_status: 500,
        next_retry_at: null,
      }),
      expect.objectContaining({
        attempt: MAX_ATTEMPTS - 1,
        status: "pending",
        next_retry_at: expect.any(String),
      }),
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await received(token)).toHaveLength(2);
  });

  it("a disabled subscription receives nothing", async () => {
    const { id, token } = await subscribe("ok");
    const paused = await api(`/api/v1/webhooks/${id}`, { method: "PATCH", body: { status: "disabled" } });
    expect(paused.json.status).toBe("disabled");
    const control = await subscribe("ok");
    await failedJob();
    await waitForDeliveries(control.token, 1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await received(token)).toEqual([]);
    expect((await api(`/api/v1/webhooks/${id}/deliveries`)).json.data).toEqual([]);
  });

  it("a subscription whose deliveries keep failing for 3 days is disabled, visibly, and gets no retry", async () => {
    const job = await failedJob();
    const { id, token } = await subscribe("failing");
    const since = new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await env.DB.prepare("UPDATE webhooks SET failing_since = ? WHERE id = ?").bind(since, id).run();
    await env.WEBHOOKS_QUEUE.send(message(id, job.id), { contentType: "json" });
    const [attempt] = await waitForAttempts(id, (rows) => rows.length === 1);
    expect(attempt).toMatchObject({ status: "failed", response_status: 500, next_retry_at: null });
    expect(attempt?.error).toMatch(/disabled/);
    const hook = await api(`/api/v1/webhooks/${id}`);
    expect(hook.json).toMatchObject({ status: "disabled", disabled_at: expect.stringMatching(/Z$/) });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await received(token)).toHaveLength(1);
  });

  it("a failed attempt starts the failing streak and a success ends it", async () => {
    const job = await failedJob();
    const failing = await subscribe("failing");
    await deliverAttempt(
      { ...env, WEBHOOK_RETRY_SCALE: "100" },
      message(failing.id, job.id),
      DELIVERED_EVENTS,
    );
    const streak = await env.DB.prepare("SELECT failing_since FROM webhooks WHERE id = ?")
      .bind(failing.id)
      .first<{ failing_since: string | null }>();
    expect(streak?.failing_since).toMatch(/Z$/);
    const ok = await subscribe("ok");
    await env.DB.prepare("UPDATE webhooks SET failing_since = '2026-01-01T00:00:00Z' WHERE id = ?")
      .bind(ok.id)
      .run();
    expect(await deliverAttempt(env, message(ok.id, job.id), DELIVERED_EVENTS)).toBe("succeeded");
    const cleared = await env.DB.prepare("SELECT failing_since FROM webhooks WHERE id = ?")
      .bind(ok.id)
      .first<{ failing_since: string | null }>();
    expect(cleared?.failing_since).toBeNull();
  });

  it("a huge response body does not break the consumer: the 200 counts", async () => {
    const { id, token } = await subscribe("huge");
    await failedJob();
    await waitForDeliveries(token, 1);
    const [attempt] = await waitForAttempts(id, (rows) => rows.length === 1);
    expect(attempt).toMatchObject({ status: "succeeded", response_status: 200, error: null });
  });

  it("a redirect to a refused target is not followed: the attempt fails", async () => {
    const job = await failedJob();
    const { id } = await subscribe("redirect-metadata");
    expect(
      await deliverAttempt({ ...env, WEBHOOK_RETRY_SCALE: "100" }, message(id, job.id), DELIVERED_EVENTS),
    ).toBe("pending");
    const [attempt] = await waitForAttempts(id, (rows) => rows.length === 1);
    expect(attempt).toMatchObject({ status: "pending", response_status: null });
    expect(attempt?.error).toMatch(/redirect/);
  });

  it("no redirect is followed, even to an allowed target", async () => {
    const job = await failedJob();
    const { id, token } = await subscribe("redirect-ok");
    expect(
      await deliverAttempt({ ...env, WEBHOOK_RETRY_SCALE: "100" }, message(id, job.id), DELIVERED_EVENTS),
    ).toBe("pending");
    expect(await received(token)).toHaveLength(1);
    expect(await received(`${token}-redirected`)).toEqual([]);
  });

  it("a redelivered queue message does not repeat an attempt already made", async () => {
    const job = await failedJob();
    const { id, token } = await subscribe("ok");
    const msg = message(id, job.id);
    expect(await deliverAttempt(env, msg, DELIVERED_EVENTS)).toBe("succeeded");
    expect(await deliverAttempt(env, msg, DELIVERED_EVENTS)).toBe("duplicate");
    expect(await received(token)).toHaveLength(1);
  });

  it("a delivery message the queue gave up on ends failed in the delivery log, once", async () => {
    const { id, token } = await subscribe("ok");
    const msg = message(id, crypto.randomUUID(), 3);
    const dead = () => deliverToQueue(WEBHOOKS_DLQ_NAME, msg);
    expect((await dead()).explicitAcks).toHaveLength(1);
    await dead(); // delivered twice: still one row
    const res = await api(`/api/v1/webhooks/${id}/deliveries`);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({ attempt: 3, status: "failed", error: DEAD_LETTER_ERROR });
    expect(await received(token)).toEqual([]);
  });

  it("a deleted subscription's pending attempt is dropped", async () => {
    const job = await failedJob();
    const { id, token } = await subscribe("ok");
    await api(`/api/v1/webhooks/${id}`, { method: "DELETE" });
    expect(await deliverAttempt(env, message(id, job.id), DELIVERED_EVENTS)).toBe("skipped");
    expect(await received(token)).toEqual([]);
  });
});

describe("webhook sender and messages", () => {
  it("a hanging receiver is cut by the timeout", async () => {
    const token = unique("hang");
    const started = Date.now();
    const outcome = await sendSigned(
      env,
      {
        url: receiverUrl("hang", token),
        secret: `whsec_${btoa("k".repeat(32))}`,
        messageId: newMessageId(),
        timestamp: Math.floor(Date.now() / 1000),
        body: "{}",
      },
      { timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({ succeeded: false, responseStatus: null });
    expect(outcome.error).toMatch(/did not answer within/);
  });

  it("the signature is the one the standardwebhooks package computes", async () => {
    const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const id = newMessageId();
    const timestamp = 1_795_331_433;
    const body = '{"type":"job.done"}';
    expect(await signPayload(secret, id, timestamp, body)).toBe(
      new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
    );
  });

  it("the body's timestamp and the header's Unix seconds are the same instant", async () => {
    const job = await failedJob();
    const event = buildEvent(
      DELIVERED_EVENTS.named("job.failed"),
      (await jobRow(job.id)) as unknown as JobRow,
      1_795_331_433_999,
    );
    expect(event.timestamp).toBe(1_795_331_433);
    expect(JSON.parse(event.body).timestamp).toBe("2026-11-22T07:10:33Z");
  });

  it("a finished job enqueues one message per matching active subscription, carrying pointers only", async () => {
    const a = await subscribe("ok", ["job.failed"]);
    const b = await subscribe("ok", ["job.done", "job.failed"]);
    const off = await subscribe("ok", ["job.failed"]);
    await api(`/api/v1/webhooks/${off.id}`, { method: "PATCH", body: { status: "disabled" } });
    await subscribe("ok", ["job.done"]);
    const { queue, batched: sent } = recordingQueue<WebhookMessage>();
    const job = { ...(await jobRow((await failedJob()).id)), status: "failed" } as unknown as JobRow;
    await enqueueJobWebhooks({ ...env, WEBHOOKS_QUEUE: queue }, job, DELIVERED_EVENTS);
    const mine = sent.filter((m) => [a.id, b.id, off.id].includes(m.body.webhookId));
    expect(mine.map((m) => m.body.webhookId)).toEqual([a.id, b.id]);
    for (const m of mine) {
      expect(Object.keys(m.body).sort()).toEqual(["attempt", "eventType", "jobId", "messageId", "webhookId"]);
      expect(m.body).toMatchObject({ jobId: job.id, eventType: "job.failed", attempt: 1 });
    }
    expect(new Set(mine.map((m) => m.body.messageId)).size).toBe(2);
  });

  it("retries come with growing delays: first within 30 s, at least 5 attempts over at least an hour", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelaySeconds(i + 1, {}));
    expect(delays.at(-1)).toBeNull();
    const waits = delays.slice(0, -1) as number[];
    expect(waits[0]).toBeLessThanOrEqual(30);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1] as number);
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(5);
    expect(waits.reduce((s, d) => s + d, 0)).toBeGreaterThanOrEqual(3600);
    expect(Math.max(...waits)).toBeLessThanOrEqual(43_200); // a Queues delay is at most 12 h
  });
});
