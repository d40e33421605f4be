import { app } from "./app.ts";
import type { Bindings } from "./env.ts";

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch, _env: Bindings, _ctx: ExecutionContext) {
    // Consumers arrive with the bulk jobs and webhooks issues; until then nothing is enqueued.
    batch.ackAll();
  },
  async scheduled(_controller: ScheduledController, _env: Bindings, _ctx: ExecutionContext) {
    // Retention arrives with the bulk jobs issue.
  },
} satisfies ExportedHandler<Bindings>;
