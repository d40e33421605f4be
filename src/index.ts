import { app } from "./app.ts";
import { onJobFinalized } from "./async/bulk/finalize.ts";
import { enqueueJobWebhooks } from "./async/deliveries/enqueue.ts";
import { deliverEvents } from "./async/deliveries/events.ts";
import { runCron } from "./cron.ts";
import { refreshPlannerStatistics } from "./db/planner-statistics.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { WEBHOOK_EVENTS } from "./resources/webhooks/webhooks.events.ts";
import { simulatedQueueDelay, simulatedWait, withSimulatedLatency } from "./simulated-latency.ts";

// A job reaching its final state enqueues one webhook delivery per subscription to the event its
// status fires, whose `data` renders as the event declares.
onJobFinalized(enqueueJobWebhooks);
// Then the planner's statistics: an import that grew a table 25× past its statistics gets them
// taken again at once, not at the next hourly cron (`PRAGMA optimize` itself only analyzes such
// tables; with none it only reads each table's size: see docs/performance-plans.md for the cost).
onJobFinalized((env) => refreshPlannerStatistics(env));
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
