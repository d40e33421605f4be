import { app } from "./app.ts";
import { onJobFinalized } from "./async/bulk/finalize.ts";
import { enqueueJobWebhooks } from "./async/deliveries/enqueue.ts";
import { deliverEvents } from "./async/deliveries/events.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { WEBHOOK_EVENTS } from "./resources/webhooks/webhooks.events.ts";

// A job reaching its final state enqueues one webhook delivery per subscription to the event its
// status fires, whose `data` renders as the event declares.
onJobFinalized(enqueueJobWebhooks);
deliverEvents(WEBHOOK_EVENTS);

export default {
  fetch: app.fetch,
  queue: routeQueue,
  scheduled: (controller: ScheduledController, env: Bindings) => runCron(controller, env),
} satisfies ExportedHandler<Bindings>;
