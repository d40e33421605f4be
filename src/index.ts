import { WorkerEntrypoint } from "cloudflare:workers";
import { app } from "./app.ts";
import { runCron } from "./cron.ts";
import type { FillProps } from "./edge/cache-key.ts";
import { servedDatabase } from "./edge/gateway.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { simulatedQueueDelay, simulatedWait, withSimulatedLatency } from "./simulated-latency.ts";

// `withSimulatedLatency` returns `env` itself unless the benchmark simulates a deployment in
// development (src/simulated-latency.ts).
export default {
  fetch: (request, env, ctx) => {
    const bound = withSimulatedLatency(env);
    servedDatabase(bound.DB);
    return app.fetch(request, bound, ctx);
  },
  queue: async (batch, env, ctx) => {
    await simulatedWait(simulatedQueueDelay(env));
    await routeQueue(batch, withSimulatedLatency(env), ctx);
  },
  scheduled: (controller, env) => runCron(controller, withSimulatedLatency(env)),
} satisfies ExportedHandler<Bindings>;

/**
 * The cached read entrypoint: the gateway above (the default entrypoint, not cached) calls it
 * through `ctx.exports` for a cacheable read, without the API key, the key's parts in `ctx.props`.
 * Deployed, Workers Cache sits in front of it (wrangler.toml `[exports]`), so a hit does not run
 * it. It runs the same app, which knows the call by its props (src/edge/fill.ts). The name is
 * `CACHED_READS` of src/edge/fill.ts.
 */
export class CachedReads extends WorkerEntrypoint<Bindings, FillProps> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, withSimulatedLatency(this.env), this.ctx));
  }
}
