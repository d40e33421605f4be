import { app } from "./app.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { onJobFinalized } from "./jobs/finalize.ts";
import { routeQueue } from "./queues.ts";
import { enqueueJobWebhooks } from "./webhooks/enqueue.ts";

// A job reaching its final state enqueues one webhook delivery per matching subscription.
onJobFinalized(enqueueJobWebhooks);

export default {
  fetch: app.fetch,
  queue: routeQueue,
  scheduled: (controller: ScheduledController, env: Bindings) => runCron(controller, env),
} satisfies ExportedHandler<Bindings>;
