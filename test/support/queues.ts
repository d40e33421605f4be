import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../src/index.ts";

/**
 * A queue that runs nothing: it keeps each message sent (through `keep`, to drop what a test does
 * not compare) in `sent`, and each message sent in a batch in `batched`.
 */
export function recordingQueue<T>(keep: (message: T) => T = (message) => message) {
  const sent: T[] = [];
  const batched: MessageSendRequest<T>[] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  const queue: Queue<T> = {
    metrics: async () => metadata.metrics,
    send: async (message) => {
      sent.push(keep(message));
      return { metadata };
    },
    sendBatch: async (messages) => {
      batched.push(...messages);
      return { metadata };
    },
  };
  return { queue, sent, batched };
}

/** Delivers one message to the Worker's queue handler as the Queues runtime would; returns its acks and retries. */
export async function deliverToQueue<T>(queue: string, body: T, testEnv: typeof env = env) {
  return deliverBatchToQueue(queue, [body], testEnv);
}

/** Delivers the messages to the Worker's queue handler as one batch; returns its acks and retries. */
export async function deliverBatchToQueue<T>(queue: string, bodies: T[], testEnv: typeof env = env) {
  const batch = createMessageBatch<T>(
    queue,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  const handler: ExportedHandlerQueueHandler<typeof env, T> = worker.queue;
  await handler(batch, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return getQueueResult(batch, ctx);
}

/** Runs the Worker's scheduled handler as a cron trigger `cron` would, at `scheduledTime`. */
export async function runScheduled(cron: string, scheduledTime: number, testEnv: typeof env = env) {
  const ctx = createExecutionContext();
  const scheduled: ExportedHandlerScheduledHandler<typeof env> = worker.scheduled;
  await scheduled(createScheduledController({ scheduledTime, cron }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}
