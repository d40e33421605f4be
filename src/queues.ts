import { z } from "zod";
import { type JobPipeline, processDeadLetter, processJobMessage } from "./async/bulk/consumer.ts";
import type { JobMessage } from "./async/bulk/types.ts";
import { processWebhookBatch } from "./async/deliveries/consumer.ts";
import { processWebhookDeadLetters } from "./async/deliveries/dead-letter.ts";
import type { WebhookMessage } from "./async/deliveries/types.ts";
import { settleMessage } from "./async/settle-message.ts";
import type { Bindings } from "./env.ts";
import { log } from "./lib/log.ts";
import { BULK_OPERATIONS, EXPORT_OPERATIONS } from "./resources/job-operations.ts";
import { onJobFinalized } from "./resources/webhooks/job-finalized.ts";
import { DELIVERED_EVENTS, WEBHOOK_EVENT_NAMES } from "./resources/webhooks/webhooks.events.ts";

/** A batch of messages whose bodies passed their queue's schema. */
type ParsedBatch<Body> = Pick<MessageBatch<Body>, "queue" | "messages">;
/** What a handler may use of the invocation: `waitUntil`, for work that outlives the batch. */
type QueueContext = Pick<ExecutionContext, "waitUntil">;
type BatchHandler<Body> = (batch: ParsedBatch<Body>, env: Bindings, ctx: QueueContext) => Promise<void>;

interface QueueDef<Body> {
  message: z.ZodType<Body>;
  /** The queue `<worker>-<name>`. */
  consume: BatchHandler<Body>;
  /** Its dead-letter queue `<worker>-<name>-dlq`: messages `consume` kept failing on. */
  deadLetters: BatchHandler<Body>;
}

type QueueConsumer = (
  batch: MessageBatch<unknown>,
  env: Bindings,
  ctx: QueueContext,
  deadLetters: boolean,
) => Promise<void>;

const jobMessage: z.ZodType<JobMessage> = z.object({
  jobId: z.string(),
  chunk: z.number().int().nonnegative(),
  at: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
  written: z
    .object({ rows: z.number().int().nonnegative(), unchanged: z.number().int().nonnegative() })
    .optional(),
});

const webhookMessage: z.ZodType<WebhookMessage> = z.object({
  webhookId: z.number().int().positive(),
  jobId: z.string(),
  eventType: z.enum(WEBHOOK_EVENT_NAMES),
  messageId: z.string(),
  attempt: z.number().int().positive(),
});

/** The jobs consumer's registry: each job type's operation (bulk or export), and what a job's final state sets off. */
export const JOB_PIPELINE: JobPipeline = {
  operations: BULK_OPERATIONS,
  exports: EXPORT_OPERATIONS,
  onFinalized: onJobFinalized,
};

/**
 * The queues the Worker consumes, by their name without the Worker's prefix: `storefront-jobs`,
 * `storefront-staging-jobs` and their `-dlq` queues all reach the `jobs` entry, so every
 * environment's queues reach the same handlers.
 */
const QUEUES = new Map<string, QueueConsumer>([
  [
    "jobs",
    consumer({
      message: jobMessage,
      consume: eachJobMessage((env, message) => processJobMessage(env, message, JOB_PIPELINE)),
      deadLetters: eachJobMessage((env, message) => processDeadLetter(env, message, JOB_PIPELINE)),
    }),
  ],
  [
    "webhooks",
    consumer({
      message: webhookMessage,
      consume: (batch, env, ctx) => processWebhookBatch(batch, env, ctx, DELIVERED_EVENTS),
      deadLetters: processWebhookDeadLetters,
    }),
  ],
]);

export async function routeQueue(batch: MessageBatch<unknown>, env: Bindings, ctx: QueueContext) {
  const { name, deadLetters } = parseQueueName(batch.queue);
  const consume = name && QUEUES.get(name);
  if (!consume) {
    log("error", "queue.unknown", { queue: batch.queue });
    batch.retryAll();
    return;
  }
  await consume(batch, env, ctx, deadLetters);
}

/** `<worker>-<name>` or `<worker>-<name>-dlq`: the name after the Worker's, and which of the two. */
function parseQueueName(queue: string) {
  const groups = /-(?<name>[a-z]+)(?<dlq>-dlq)?$/.exec(queue)?.groups;
  return { name: groups?.name, deadLetters: groups?.dlq !== undefined };
}

/**
 * Hands a queue's handler the messages whose body parses. A body that does not parse never will:
 * retrying it, then dead-lettering it, would only delay the same outcome, so it is logged and
 * acknowledged.
 */
function consumer<Body>(def: QueueDef<Body>): QueueConsumer {
  return async (batch, env, ctx, deadLetters) => {
    const messages: Message<Body>[] = [];
    for (const message of batch.messages) {
      const parsed = def.message.safeParse(message.body);
      if (parsed.success) {
        messages.push(withBody(message, parsed.data));
      } else {
        log("error", "queue.malformed_message", {
          queue: batch.queue,
          message_id: message.id,
          issues: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
        });
        message.ack();
      }
    }
    if (messages.length === 0) return;
    await (deadLetters ? def.deadLetters : def.consume)({ queue: batch.queue, messages }, env, ctx);
  };
}

/** The message with its parsed body; acknowledging or retrying it acts on the original. */
const withBody = <Body>(message: Message<unknown>, body: Body): Message<Body> => ({
  id: message.id,
  timestamp: message.timestamp,
  attempts: message.attempts,
  body,
  ack: () => message.ack(),
  retry: (options) => message.retry(options),
});

const RETRY_DELAY_SECONDS = 5;

/** Job chunks (batch size 1) and their dead letters: a message that throws is retried with a growing delay. */
function eachJobMessage(
  handle: (env: Bindings, message: JobMessage) => Promise<void>,
): BatchHandler<JobMessage> {
  return async (batch, env) => {
    for (const message of batch.messages) {
      await settleMessage(message, () => handle(env, message.body), {
        event: "job.message_failed",
        fields: {
          queue: batch.queue,
          job_id: message.body.jobId,
          chunk: message.body.chunk,
          attempt: message.attempts,
        },
        delaySeconds: RETRY_DELAY_SECONDS * message.attempts,
      });
    }
  };
}
