import type { Bindings } from "../../env.ts";

/** The events a subscription can ask for: one per final job status. */
export const WEBHOOK_EVENTS = ["job.done", "job.done_with_errors", "job.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const isWebhookEvent = (value: string): value is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(value);

/** The queue wrangler.toml binds as `WEBHOOKS_QUEUE`; the Worker's queue handler routes by this name. */
export const WEBHOOKS_QUEUE_NAME = "storefront-webhooks";
/** Its dead-letter queue: messages whose handler kept failing end there (see dead-letter.ts). */
export const WEBHOOKS_DLQ_NAME = "storefront-webhooks-dlq";

/**
 * One delivery attempt to make: pointers only, never the secret or the payload. `messageId` is the
 * `webhook-id` header, the same on every attempt of one event so receivers can deduplicate.
 */
export interface WebhookMessage {
  webhookId: number;
  jobId: string;
  eventType: WebhookEvent;
  messageId: string;
  attempt: number;
}

/** A batch of delivery messages, as the queue router hands it over (bodies already validated). */
export type WebhookBatch = Pick<MessageBatch<WebhookMessage>, "queue" | "messages">;

/**
 * Bindings the webhook stages read. `WEBHOOK_RETRY_SCALE` (a number, default 1) multiplies the retry
 * delays; the test configuration sets it to 0 so that retries come at once.
 */
export type WebhookEnv = Bindings & { WEBHOOK_RETRY_SCALE?: string };
