import type { WebhookEnv } from "./types.ts";

/**
 * Delay before each retry, in seconds: the first within 30 s, then growing (2 min, 10 min, 30 min,
 * 1 h, 3 h, 6 h, 12 h; a Queues message delay is at most 12 h). Nine attempts over about 23 hours.
 */
const RETRY_DELAYS_SECONDS = [30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** A subscription whose deliveries have kept failing this long (no success in between) is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Each attempt may take this long (connect, answer and the body read); past it the attempt fails and
 * is retried like any other failure. It is short on purpose: it bounds how long one hanging receiver
 * can hold up every other delivery. The attempts of a batch run concurrently, but the batch only
 * completes (its acks take effect, and the next batch is handed out: one at a time locally, and in
 * production while Queues has not scaled the consumer out) when its slowest attempt has settled.
 * Detaching a slow attempt instead (`waitUntil`) would not help: a queue invocation also waits for
 * its `waitUntil` work unless the Worker opts into `queue_consumer_no_wait_for_wait_until`.
 */
export const DELIVERY_TIMEOUT_MS = 1_000;

/** The receiver's answer is read up to this size, then ignored: a receiver's body never matters. */
export const RESPONSE_MAX_BYTES = 64 * 1024;

/** The delay before the attempt after `attempt` (1-based), or null when `attempt` was the last. */
export function retryDelaySeconds(attempt: number, env: Pick<WebhookEnv, "WEBHOOK_RETRY_SCALE">) {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const scale = Number(env.WEBHOOK_RETRY_SCALE ?? "1");
  return Math.round(base * (Number.isFinite(scale) && scale >= 0 ? scale : 1));
}
