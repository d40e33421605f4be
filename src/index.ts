import { app } from "./app.ts";
import { onJobFinalized } from "./async/bulk-jobs/finalize.ts";
import { enqueueJobWebhooks } from "./async/webhook-delivery/enqueue.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";

// A job reaching its final state enqueues one webhook delivery per matching subscription.
onJobFinalized(enqueueJobWebhooks);

export default {
  fetch: app.fetch,
  queue: routeQueue,
  scheduled: (controller: ScheduledController, env: Bindings) => runCron(controller, env),
} satisfies ExportedHandler<Bindings>;
