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

/** A compatibility flag of the Worker under test (wrangler.toml's `compatibility_flags` or its date). */
const compatibilityFlag = (name: string) =>
  (globalThis as { Cloudflare?: { compatibilityFlags?: Record<string, boolean> } }).Cloudflare
    ?.compatibilityFlags?.[name] === true;

/**
 * Plays the Queues runtime for a backlog of `bodies`: hands them to the Worker's queue handler in
 * batches of `batchSize`, each batch when the one before has ended, as Queues does for a consumer it
 * has not scaled out. A batch ends when its handler returns under the Worker's
 * `queue_consumer_no_wait_for_wait_until` flag, otherwise once its `waitUntil` work has settled too.
 * (The test pool's own queue hands a batch out without waiting for the one before: measured, a second
 * batch began 7 ms after a first whose handler slept 3 s; it cannot show what a slow batch holds up.)
 * Returns when each batch ended (ms after the start) and `drained`, which awaits every batch's
 * `waitUntil` work and returns their acks and retries.
 */
export async function consumeLikeQueues<T>(queue: string, bodies: T[], batchSize: number) {
  const waitsForWaitUntil = !compatibilityFlag("queue_consumer_no_wait_for_wait_until");
  const handler: ExportedHandlerQueueHandler<typeof env, T> = worker.queue;
  const started = Date.now();
  const batches: { batch: MessageBatch<T>; ctx: ExecutionContext }[] = [];
  const endedMs: number[] = [];
  for (let i = 0; i < bodies.length; i += batchSize) {
    const batch = createMessageBatch<T>(
      queue,
      bodies
        .slice(i, i + batchSize)
        .map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await handler(batch, env, ctx);
    if (waitsForWaitUntil) await waitOnExecutionContext(ctx);
    endedMs.push(Date.now() - started);
    batches.push({ batch, ctx });
  }
  const drained = () => Promise.all(batches.map(({ batch, ctx }) => getQueueResult(batch, ctx)));
  return { endedMs, drained };
}
