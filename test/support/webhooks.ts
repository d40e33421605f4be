import { env } from "cloudflare:test";
import { inject, onTestFinished } from "vitest";
import { newMessageId } from "../../src/async/deliveries/enqueue.ts";
import type { WebhookMessage } from "../../src/async/deliveries/types.ts";
import type { WebhookEventName } from "../../src/resources/webhooks/webhooks.events.ts";
import { api } from "./api.ts";
import { createProduct } from "./factories/catalog.ts";
import { submitBulk, waitForJob } from "./jobs.ts";
import { unique } from "./unique.ts";

const ALL_EVENTS: WebhookEventName[] = ["job.done", "job.done_with_errors", "job.failed"];

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The fixture receivers (test/support/fixture-server.ts says how each answers). */
type Behaviour =
  | "ok"
  | "flaky"
  | "failing"
  | "hang"
  | "hang-once"
  | "slow"
  | "huge"
  | "redirect-metadata"
  | "redirect-ok";

export const receiverUrl = (behaviour: Behaviour, token: string) =>
  `${inject("fixtureOrigin")}/webhooks/${behaviour}/${token}`;

/** The deliveries the fixture receiver got for the token, in order. */
export async function received(token: string): Promise<Received[]> {
  const res = await fetch(`${inject("fixtureOrigin")}/webhooks/received/${token}`);
  return (await res.json()) as Received[];
}

/** Polls the fixture receiver until it holds `count` deliveries for the token. */
export async function waitForDeliveries(token: string, count: number, timeoutMs = 12_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await received(token);
    if (list.length >= count) return list;
    if (Date.now() > deadline) throw new Error(`receiver ${token} got ${list.length} of ${count} deliveries`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The webhook's attempts (newest first), once `predicate` holds for them. */
export async function waitForAttempts(
  webhookId: number,
  predicate: (rows: Record<string, any>[]) => boolean,
  timeoutMs = 12_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/api/v1/webhooks/${webhookId}/deliveries?per_page=100`);
    const rows = res.json.data as Record<string, any>[];
    if (predicate(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`attempts of webhook ${webhookId}: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Subscribes a fixture receiver; the subscription is deleted when the test ends. */
export async function subscribe(behaviour: Behaviour, events: WebhookEventName[] = ALL_EVENTS) {
  const token = unique(behaviour);
  const res = await api("/api/v1/webhooks", {
    method: "POST",
    body: { url: receiverUrl(behaviour, token), events },
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${res.text}`);
  const id = res.json.id as number;
  onTestFinished(async () => {
    await api(`/api/v1/webhooks/${id}`, { method: "DELETE" });
  });
  return { id, token, secret: res.json.secret as string };
}

/** A job that ends `failed` (its only record matches nothing). */
export async function failedJob() {
  const jobId = await submitBulk("/api/v1/variants/bulk", {
    variants: [{ id: 987654321, warehouse_stock: 1 }],
    options: { match_by: "id" },
  });
  return waitForJob(jobId);
}

/** A job that ends `done` (one variant updated). */
export async function doneJob() {
  const product = await createProduct();
  const jobId = await submitBulk("/api/v1/variants/bulk", {
    variants: [{ id: product.variantIds[0], warehouse_stock: 4 }],
    options: { match_by: "id" },
  });
  return waitForJob(jobId);
}

export const jobRow = async (id: string) =>
  (await env.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(id).first()) as Record<string, unknown>;

/** A `job.failed` delivery message for one subscription, with a fresh message id. */
export const message = (webhookId: number, jobId: string, attempt = 1): WebhookMessage => ({
  webhookId,
  jobId,
  eventType: "job.failed",
  messageId: newMessageId(),
  attempt,
});
