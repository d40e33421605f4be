import { app } from "./app.ts";
import { onJobFinalized } from "./async/bulk/finalize.ts";
import { enqueueJobWebhooks } from "./async/deliveries/enqueue.ts";
import { deliverEvents } from "./async/deliveries/events.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { WEBHOOK_EVENTS } from "./resources/webhooks/webhooks.events.ts";
import { simulatedQueueDelay, simulatedWait, withSimulatedLatency } from "./simulated-latency.ts";

// A job reaching its final state enqueues one webhook delivery per subscription to the event its
// status fires, whose `data` renders as the event declares.
onJobFinalized(enqueueJobWebhooks);
deliverEvents(WEBHOOK_EVENTS);

// `withSimulatedLatency` returns `env` itself unless the benchmark simulates a deployment in
// development (src/simulated-latency.ts).
export default {
  fetch: (request, env, ctx) => app.fetch(request, withSimulatedLatency(env), ctx),
  queue: async (batch, env, ctx) => {
    await simulatedWait(simulatedQueueDelay(env));
    await routeQueue(batch, withSimulatedLatency(env), ctx);
  },
  scheduled: (controller, env) => runCron(controller, withSimulatedLatency(env)),
} satisfies ExportedHandler<Bindings>;
