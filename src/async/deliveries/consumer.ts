import { and, eq, sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { jobs, webhookDeliveries, webhooks } from "../../db/schema/index.ts";
import { isoSeconds } from "../../lib/time.ts";
import { settleMessage } from "../settle-message.ts";
import type { DeliveredEvents } from "./events.ts";
import { buildEvent } from "./payload.ts";
import {
  DISABLE_AFTER_MS,
  HANDOFF_AFTER_MS,
  HANDOFF_REDELIVERY_SECONDS,
  retryDelaySeconds,
} from "./retry-policy.ts";
import { type AttemptOutcome, type SendOptions, sendSigned } from "./sender.ts";
import type { WebhookBatch, WebhookEnv, WebhookMessage } from "./types.ts";

/** Delay before the queue redelivers a message whose handling threw (D1 or Queues unavailable). */
const HANDLER_RETRY_SECONDS = 30;

/**
 * The webhooks queue handler: every message of the batch is one attempt, all started at once, each
 * acked as soon as its own attempt is recorded. An attempt still waiting for its receiver after
 * HANDOFF_AFTER_MS is handed off: it runs on (up to DELIVERY_TIMEOUT_MS) through `waitUntil` while
 * its message is marked for redelivery after HANDOFF_REDELIVERY_SECONDS, and the batch ends without
 * it (the Worker's `queue_consumer_no_wait_for_wait_until` flag), so a hanging receiver holds up the
 * deliveries queued behind it by about HANDOFF_AFTER_MS. The redelivered message finds the attempt
 * recorded and does nothing ("duplicate"); if the handed-off attempt was lost (the isolate ended
 * before it was recorded), it makes that attempt again, with the same `webhook-id`. wrangler.toml
 * keeps the batch within the six outbound connections a Workers invocation may have waiting for an
 * answer, so no attempt's timeout runs out while it queues behind hanging ones.
 */
export async function processWebhookBatch(
  batch: WebhookBatch,
  env: WebhookEnv,
  ctx: Pick<ExecutionContext, "waitUntil">,
  events: DeliveredEvents,
) {
  const handOff = {
    afterMs: HANDOFF_AFTER_MS,
    redeliverySeconds: HANDOFF_REDELIVERY_SECONDS,
    waitUntil: (work: Promise<unknown>) => ctx.waitUntil(work),
  };
  await Promise.all(
    batch.messages.map((message) =>
      settleMessage(
        message,
        () => deliverAttempt(env, message.body, events),
        {
          event: "webhooks.attempt_failed",
          fields: {
            queue: batch.queue,
            webhook_id: message.body.webhookId,
            message_id: message.body.messageId,
            attempt: message.body.attempt,
          },
          delaySeconds: HANDLER_RETRY_SECONDS,
        },
        handOff,
      ),
    ),
  );
}

export type AttemptResult = "skipped" | "duplicate" | "succeeded" | "pending" | "failed";

/**
 * Makes one attempt and records it. A subscription that is gone or disabled gets nothing; an attempt
 * already recorded (a redelivered message) is not made again. On failure the next attempt is a new
 * queue message with a growing delay; after the last one, or once the subscription has kept failing
 * for DISABLE_AFTER_MS (which disables it), the delivery is `failed`. The retry is enqueued before
 * the attempt is recorded, so a crash in between repeats the attempt (same `webhook-id`) rather than
 * losing the delivery.
 */
export async function deliverAttempt(
  env: WebhookEnv,
  message: WebhookMessage,
  events: DeliveredEvents,
  options: SendOptions = {},
): Promise<AttemptResult> {
  const db = createDb(env.DB);
  const [hookRows, doneRows, jobRows] = await db.batch([
    db.select().from(webhooks).where(eq(webhooks.id, message.webhookId)),
    db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.messageId, message.messageId),
          eq(webhookDeliveries.attempt, message.attempt),
        ),
      ),
    db.select().from(jobs).where(eq(jobs.id, message.jobId)),
  ]);
  const hook = hookRows[0];
  if (hook?.status !== "active") return "skipped";
  if (doneRows.length > 0) return "duplicate";

  const startedMs = Date.now();
  const job = jobRows[0];
  let outcome: AttemptOutcome;
  if (job) {
    const event = buildEvent(events.named(message.eventType), job, startedMs);
    outcome = await sendSigned(
      env,
      { url: hook.url, secret: hook.secret, messageId: message.messageId, ...event },
      options,
    );
  } else {
    outcome = { succeeded: false, responseStatus: null, error: "the job no longer exists", durationMs: 0 };
  }

  const endedMs = Date.now();
  const failingSince = hook.failingSince ? Date.parse(hook.failingSince) : startedMs;
  const disable = !outcome.succeeded && endedMs - failingSince >= DISABLE_AFTER_MS;
  const delay = outcome.succeeded || disable || !job ? null : retryDelaySeconds(message.attempt, env);
  const status: AttemptResult = outcome.succeeded ? "succeeded" : delay === null ? "failed" : "pending";
  const error = disable
    ? `${outcome.error ? `${outcome.error}; ` : ""}subscription disabled: its deliveries kept failing for 3 days`
    : outcome.error;

  if (delay !== null) {
    await env.WEBHOOKS_QUEUE.send(
      { ...message, attempt: message.attempt + 1 },
      { delaySeconds: delay, contentType: "json" },
    );
  }
  await db.batch([
    db
      .insert(webhookDeliveries)
      .values({
        webhookId: hook.id,
        messageId: message.messageId,
        eventType: message.eventType,
        jobId: message.jobId,
        attempt: message.attempt,
        status,
        responseStatus: outcome.responseStatus,
        error,
        durationMs: outcome.durationMs,
        createdAt: isoSeconds(startedMs),
        nextRetryAt: delay === null ? null : isoSeconds(endedMs + delay * 1000),
      })
      .onConflictDoNothing(),
    outcome.succeeded
      ? db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, hook.id))
      : db
          .update(webhooks)
          .set({
            failingSince: sql`COALESCE(${webhooks.failingSince}, ${isoSeconds(startedMs)})`,
            ...(disable
              ? {
                  status: "disabled" as const,
                  disabledAt: isoSeconds(endedMs),
                  updatedAt: isoSeconds(endedMs),
                }
              : {}),
          })
          .where(and(eq(webhooks.id, hook.id), eq(webhooks.status, "active"))),
  ]);
  return status;
}
