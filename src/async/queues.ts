import type { Bindings } from "../env.ts";
import { describeError } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { processDeadLetter, processJobMessage } from "./bulk-jobs/consumer.ts";
import type { JobMessage } from "./bulk-jobs/types.ts";
import { processWebhookBatch } from "./webhook-delivery/consumer.ts";
import { processWebhookDeadLetters } from "./webhook-delivery/dead-letter.ts";
import type { WebhookMessage } from "./webhook-delivery/types.ts";

const RETRY_DELAY_SECONDS = 5;

/**
 * The queue handler: routes a batch by the kind its queue's name ends with, so every environment's
 * queues (`storefront-jobs`, `storefront-staging-jobs`, …) reach the same handlers.
 */
const HANDLERS: [suffix: string, handle: (batch: MessageBatch<unknown>, env: Bindings) => Promise<void>][] = [
  ["-webhooks-dlq", (batch, env) => processWebhookDeadLetters(batch as MessageBatch<WebhookMessage>, env)],
  ["-webhooks", (batch, env) => processWebhookBatch(batch as MessageBatch<WebhookMessage>, env)],
  ["-jobs-dlq", (batch, env) => eachJobMessage(batch as MessageBatch<JobMessage>, env, processDeadLetter)],
  ["-jobs", (batch, env) => eachJobMessage(batch as MessageBatch<JobMessage>, env, processJobMessage)],
];

export async function routeQueue(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const route = HANDLERS.find(([suffix]) => batch.queue.endsWith(suffix));
  if (!route) {
    log("error", "queue.unknown", { queue: batch.queue });
    batch.retryAll();
    return;
  }
  await route[1](batch, env);
}

/** Job chunks (batch size 1) and their dead letters: a message that throws is retried with a growing delay. */
async function eachJobMessage(
  batch: MessageBatch<JobMessage>,
  env: Bindings,
  handle: (env: Bindings, message: JobMessage) => Promise<void>,
) {
  for (const message of batch.messages) {
    try {
      await handle(env, message.body);
      message.ack();
    } catch (err) {
      log("error", "job.message_failed", {
        queue: batch.queue,
        job_id: message.body.jobId,
        chunk: message.body.chunk,
        attempt: message.attempts,
        error: describeError(err),
      });
      message.retry({ delaySeconds: RETRY_DELAY_SECONDS * message.attempts });
    }
  }
}
