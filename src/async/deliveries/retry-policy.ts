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
 * is retried like any other failure. Ten seconds, as GitHub gives (Shopify 5 s): a serverless
 * receiver's cold start often needs more than one. It no longer bounds how long a hanging receiver
 * holds up other deliveries: HANDOFF_AFTER_MS does (consumer.ts).
 */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * An attempt still waiting for its receiver after this long stops holding up its batch and runs on
 * in the background: the batch ends (its acks take effect, and Queues hands out the next batch, which
 * waits for it while Queues has not scaled the consumer out), so this bounds
 * how long a hanging receiver delays the deliveries queued behind it. Most receivers answer well
 * within it, so most attempts are settled in line, and only slow ones pay for a redelivery.
 * Measured (test/deliveries/slow-receivers.test.ts, batches of 6 handed out one after another):
 * 11 deliveries recorded 0.3–0.6 s after they were handed out alone, 1.2–1.3 s beside a receiver
 * that never answers, 10.3 s when its attempt was not handed off.
 */
export const HANDOFF_AFTER_MS = 1_000;

/**
 * When the message of a handed-off attempt comes back, to find that attempt recorded (or lost, and
 * make it again). Past the longest a handed-off attempt can still run: the rest of its timeout, and
 * in any case the 30 s Workers give `waitUntil` work after the invocation ended, with a margin, so the
 * redelivery never overlaps the attempt it checks.
 */
export const HANDOFF_REDELIVERY_SECONDS = 60;

/** The receiver's answer is read up to this size, then ignored: a receiver's body never matters. */
export const RESPONSE_MAX_BYTES = 64 * 1024;

/** The delay before the attempt after `attempt` (1-based), or null when `attempt` was the last. */
export function retryDelaySeconds(attempt: number, env: Pick<WebhookEnv, "WEBHOOK_RETRY_SCALE">) {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const scale = Number(env.WEBHOOK_RETRY_SCALE ?? "1");
  return Math.round(base * (Number.isFinite(scale) && scale >= 0 ? scale : 1));
}
