import type { Bindings } from "../../env.ts";
import type { JobRow } from "../bulk/types.ts";

/** The statuses a job ends in; each fires at most one event. */
type FinalJobStatus = Exclude<JobRow["status"], "pending" | "running">;

/**
 * A webhook event as deliveries use it: the job status that fires it and how its `data` renders
 * from that job. Events are declared once in src/resources/webhooks/webhooks.events.ts, which adds
 * what documents them, and handed down (events.ts), since no pipeline imports a resource.
 */
export interface DeliveredEvent {
  name: string;
  /** The final status of the job that fires it. */
  jobStatus: FinalJobStatus;
  data: DeliveredData;
}

/** An event's `data`, rendered from the job that fired it. */
export interface DeliveredData {
  render: (job: JobRow) => Record<string, unknown>;
}

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
  /** A declared event's name (the queue router checks it). */
  eventType: string;
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
