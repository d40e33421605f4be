import { eq } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { webhookDeliveries, webhooks } from "../../db/schema/index.ts";
import { isoSeconds } from "../../lib/time.ts";
import type { WebhookBatch, WebhookEnv } from "./types.ts";

export const DEAD_LETTER_ERROR = "the delivery could not be processed after repeated attempts";

/**
 * A delivery message the webhooks queue gave up on (its handler kept failing: D1 or Queues
 * unavailable, not the receiver, whose failures are retried by the delivery policy itself): it ends
 * `failed` in the delivery log instead of vanishing. A message already recorded keeps its row.
 */
export async function processWebhookDeadLetters(batch: WebhookBatch, env: WebhookEnv) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const m = message.body;
    const [hook] = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, m.webhookId));
    if (hook) {
      await db
        .insert(webhookDeliveries)
        .values({
          webhookId: m.webhookId,
          messageId: m.messageId,
          eventType: m.eventType,
          jobId: m.jobId,
          attempt: m.attempt,
          status: "failed",
          error: DEAD_LETTER_ERROR,
          createdAt: isoSeconds(Date.now()),
        })
        .onConflictDoNothing();
    }
    message.ack();
  }
}
