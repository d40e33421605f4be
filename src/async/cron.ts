import { refreshPlannerStatistics } from "../db/planner-statistics.ts";
import type { Bindings } from "../env.ts";
import { log } from "../lib/log.ts";
import { sweepStalledJobs } from "./bulk-jobs/liveness.ts";
import { runRetention } from "./bulk-jobs/retention.ts";

/** The cron triggers of wrangler.toml and what each runs, in order. */
export const CRON_TASKS: Record<string, ((env: Bindings, now: number) => Promise<unknown>)[]> = {
  /** Every minute: jobs that stopped making progress are re-driven or given up. */
  "* * * * *": [sweepStalledJobs],
  /** Every hour: retention (jobs, idempotency keys, webhook deliveries), then planner statistics. */
  "0 * * * *": [runRetention, (env) => refreshPlannerStatistics(env)],
};

export async function runCron(controller: ScheduledController, env: Bindings) {
  const tasks = CRON_TASKS[controller.cron];
  if (!tasks) {
    log("error", "cron.unknown", { cron: controller.cron });
    return;
  }
  for (const task of tasks) await task(env, controller.scheduledTime);
}
