import { registerHooks } from "node:module";

/**
 * Loaded with `--import` by the Node runs of the served bundle (capture, in-process bulk, memory,
 * plans): the bundle imports `cloudflare:workers` for its cached read entrypoint, a module only
 * workerd has. Node gets a stand-in `WorkerEntrypoint`; the default entrypoint those runs call
 * never uses it.
 */
const SPECIFIER = "cloudflare:workers";
const SOURCE = "export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }";

registerHooks({
  resolve: (specifier, context, next) =>
    specifier === SPECIFIER ? { url: SPECIFIER, shortCircuit: true } : next(specifier, context),
  load: (url, context, next) =>
    url === SPECIFIER ? { format: "module", source: SOURCE, shortCircuit: true } : next(url, context),
});
