import { app } from "./app.ts";
import { onJobFinalized } from "./async/bulk-jobs/finalize.ts";
import { enqueueJobWebhooks } from "./async/deliveries/enqueue.ts";
import { renderJobsWith } from "./async/deliveries/payload.ts";
import { rowRenderer } from "./conventions/row-renderer.ts";
import { runCron } from "./cron.ts";
import type { Bindings } from "./env.ts";
import { routeQueue } from "./queues.ts";
import { jobResource } from "./resources/jobs/jobs.resource.ts";

// A job reaching its final state enqueues one webhook delivery per matching subscription, whose
// payload shows the job as `GET /jobs/{id}` does.
onJobFinalized(enqueueJobWebhooks);
renderJobsWith(rowRenderer(jobResource));

export default {
  fetch: app.fetch,
  queue: routeQueue,
  scheduled: (controller: ScheduledController, env: Bindings) => runCron(controller, env),
} satisfies ExportedHandler<Bindings>;
