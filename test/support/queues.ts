import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../src/index.ts";

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
