import type { OnJobFinalized } from "../../async/bulk/finalize.ts";
import { enqueueJobWebhooks } from "../../async/deliveries/enqueue.ts";
import { refreshPlannerStatistics } from "../../db/planner-statistics.ts";
import { DELIVERED_EVENTS } from "./webhooks.events.ts";

/**
 * What a job reaching its final state sets off: one webhook delivery per active subscription to the
 * event its status fires, then the planner's statistics: an import that grew a table 25× past its
 * statistics gets them taken again at once, not at the next hourly cron (`PRAGMA optimize` only
 * analyzes such tables; docs/performance-plans.md has the cost). Handed to every stage that
 * finalizes jobs: the jobs consumer (src/queues.ts), the liveness sweep and retention
 * (src/cron.ts), and the cancel route.
 */
export const onJobFinalized: OnJobFinalized = async (env, job) => {
  await enqueueJobWebhooks(env, job, DELIVERED_EVENTS);
  await refreshPlannerStatistics(env);
};
