import { app } from "./app.ts";
import type { Bindings } from "./env.ts";
import { processDeadLetter, processJobMessage } from "./jobs/consumer.ts";
import { runRetention } from "./jobs/retention.ts";
import type { JobMessage } from "./jobs/types.ts";

const RETRY_DELAY_SECONDS = 5;

export default {
  fetch: app.fetch,

  /** Job chunks (batch size 1) and their dead letters; webhook deliveries join later. */
  async queue(batch: MessageBatch<JobMessage>, env: Bindings) {
    const deadLetters = batch.queue.endsWith("-dlq");
    for (const message of batch.messages) {
      try {
        if (deadLetters) await processDeadLetter(env, message.body);
        else await processJobMessage(env, message.body);
        message.ack();
      } catch (err) {
        console.error(
          JSON.stringify({
            level: "error",
            queue: batch.queue,
            job_id: message.body.jobId,
            error: String(err),
          }),
        );
        message.retry({ delaySeconds: RETRY_DELAY_SECONDS * message.attempts });
      }
    }
  },

  async scheduled(controller: ScheduledController, env: Bindings) {
    await runRetention(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Bindings, JobMessage>;
