import { sql } from "drizzle-orm";
import { rawAll } from "../db/raw.ts";
import type { JobRow } from "../jobs/types.ts";
import { isWebhookEvent, type WebhookEnv, type WebhookMessage } from "./types.ts";

const SEND_BATCH_MAX = 100;

/** A fresh Standard Webhooks message id (`msg_` + 32 hex digits). */
export const newMessageId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * The `onJobFinalized` hook: one queue message per active subscription to `job.<final status>`.
 * Finalization runs it once per job; a failure here is logged and never fails the job pipeline
 * (the job's state is already committed and a thrown error could not make the hook run again).
 */
export async function enqueueJobWebhooks(env: WebhookEnv, job: JobRow): Promise<void> {
  const eventType = `job.${job.status}`;
  if (!isWebhookEvent(eventType)) return;
  try {
    const subscribers = await rawAll<{ id: number }>(
      env.DB,
      sql`SELECT id FROM webhooks
          WHERE status = 'active' AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ${eventType})
          ORDER BY id`,
    );
    const messages = subscribers.map(
      (s): MessageSendRequest<WebhookMessage> => ({
        body: { webhookId: s.id, jobId: job.id, eventType, messageId: newMessageId(), attempt: 1 },
        contentType: "json",
      }),
    );
    for (let i = 0; i < messages.length; i += SEND_BATCH_MAX) {
      await env.WEBHOOKS_QUEUE.sendBatch(messages.slice(i, i + SEND_BATCH_MAX));
    }
  } catch (err) {
    console.error(
      JSON.stringify({
        level: "error",
        stage: "webhooks.enqueue",
        job_id: job.id,
        event: eventType,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  }
}
