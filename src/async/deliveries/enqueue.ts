import { sql } from "drizzle-orm";
import { rawAll } from "../../db/raw.ts";
import { describeError } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import type { JobRow } from "../bulk/types.ts";
import type { DeliveredEvents } from "./events.ts";
import type { WebhookEnv, WebhookMessage } from "./types.ts";

const SEND_BATCH_MAX = 100;

/** A fresh Standard Webhooks message id (`msg_` + 32 hex digits). */
export const newMessageId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * The Standard Webhooks message id of one job event for one subscription: the same however often
 * the finalize hook runs, so a re-run enqueues duplicates the delivery consumer recognises.
 */
export const messageIdFor = (jobId: string, webhookId: number) =>
  `msg_${jobId.replaceAll("-", "")}_${webhookId}`;

/**
 * What a job's final state sets off (the finalize hook): one queue message per active subscription
 * to the event of `events` its final status fires. A failure is logged and rethrown: the job queue
 * then retries its last message, which runs the hook again (message ids are stable, so nothing is
 * delivered twice).
 */
export async function enqueueJobWebhooks(
  env: WebhookEnv,
  job: JobRow,
  events: DeliveredEvents,
): Promise<void> {
  // A dry run changed nothing: there is nothing to tell subscribers.
  if (job.dryRun) return;
  const event = events.firedBy(job);
  if (!event) return;
  const eventType = event.name;
  try {
    const subscribers = await rawAll<{ id: number }>(
      env.DB,
      sql`SELECT id FROM webhooks
          WHERE status = 'active' AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ${eventType})
          ORDER BY id`,
    );
    const messages = subscribers.map(
      (s): MessageSendRequest<WebhookMessage> => ({
        body: {
          webhookId: s.id,
          jobId: job.id,
          eventType,
          messageId: messageIdFor(job.id, s.id),
          attempt: 1,
        },
        contentType: "json",
      }),
    );
    for (let i = 0; i < messages.length; i += SEND_BATCH_MAX) {
      await env.WEBHOOKS_QUEUE.sendBatch(messages.slice(i, i + SEND_BATCH_MAX));
    }
  } catch (err) {
    log("error", "webhooks.enqueue_failed", { job_id: job.id, event: eventType, error: describeError(err) });
    throw err;
  }
}
