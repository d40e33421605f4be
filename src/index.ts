import { app } from "./app.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { processDeadLetter, processJobMessage } from "./jobs/consumer.ts";
import { onJobFinalized } from "./jobs/finalize.ts";
import type { JobMessage } from "./jobs/types.ts";
import { describeError, log } from "./lib/log.ts";
import { processWebhookBatch } from "./webhooks/consumer.ts";
import { processWebhookDeadLetters } from "./webhooks/dead-letter.ts";
import { enqueueJobWebhooks } from "./webhooks/enqueue.ts";
import { WEBHOOKS_DLQ_NAME, WEBHOOKS_QUEUE_NAME, type WebhookMessage } from "./webhooks/types.ts";

const RETRY_DELAY_SECONDS = 5;

// A job reaching its final state enqueues one webhook delivery per matching subscription.
onJobFinalized(enqueueJobWebhooks);

export default {
  fetch: app.fetch,

  /** Webhook delivery attempts and their dead letters; job chunks (batch size 1) and theirs. */
  async queue(batch: MessageBatch<JobMessage>, env: Bindings) {
    if (batch.queue === WEBHOOKS_QUEUE_NAME) {
      await processWebhookBatch(batch as unknown as MessageBatch<WebhookMessage>, env);
      return;
    }
    if (batch.queue === WEBHOOKS_DLQ_NAME) {
      await processWebhookDeadLetters(batch as unknown as MessageBatch<WebhookMessage>, env);
      return;
    }
    const deadLetters = batch.queue.endsWith("-dlq");
    for (const message of batch.messages) {
      try {
        if (deadLetters) await processDeadLetter(env, message.body);
        else await processJobMessage(env, message.body);
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
  },

  scheduled: (controller: ScheduledController, env: Bindings) => runCron(controller, env),
} satisfies ExportedHandler<Bindings, JobMessage>;
