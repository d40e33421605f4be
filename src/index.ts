import { app } from "./app.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { simulatedQueueDelay, simulatedWait, withSimulatedLatency } from "./simulated-latency.ts";

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
