import { sweepStalledJobs } from "./async/bulk/liveness.ts";
import { runJobRetention } from "./async/bulk/retention.ts";
import { purgeOldWebhookDeliveries } from "./async/deliveries/retention.ts";
import { refreshPlannerStatistics } from "./db/planner-statistics.ts";
import type { Bindings } from "./env.ts";
import { purgeExpiredIdempotencyKeys } from "./http/idempotency.ts";
import { log } from "./lib/log.ts";
import { isoSeconds } from "./lib/time.ts";

type CronTask = (env: Bindings, now: number) => Promise<unknown>;

/** Every task the cron triggers run, by name. `now` is the trigger's scheduled time. */
export const CRON_TASKS = {
  "stale-job-sweep": sweepStalledJobs,
  "job-retention": runJobRetention,
  "idempotency-key-purge": purgeIdempotencyKeys,
  "webhook-delivery-retention": (env, now) => purgeOldWebhookDeliveries(env.DB, now),
  "planner-statistics": (env) => refreshPlannerStatistics(env),
} satisfies Record<string, CronTask>;

type CronTaskName = keyof typeof CRON_TASKS;

/** The cron triggers of wrangler.toml and the tasks each runs, in order. */
const SCHEDULE: Record<string, CronTaskName[]> = {
  "* * * * *": ["stale-job-sweep"],
  "0 * * * *": ["job-retention", "idempotency-key-purge", "webhook-delivery-retention", "planner-statistics"],
};

/** Expired idempotency keys deleted per statement: statements repeat until one deletes fewer. */
const IDEMPOTENCY_PURGE_BATCH = 500;

async function purgeIdempotencyKeys(env: Bindings, now: number) {
  const nowIso = isoSeconds(now);
  let deleted = IDEMPOTENCY_PURGE_BATCH;
  while (deleted >= IDEMPOTENCY_PURGE_BATCH) {
    deleted = await purgeExpiredIdempotencyKeys(env.DB, nowIso, IDEMPOTENCY_PURGE_BATCH);
  }
}

export async function runCron(controller: ScheduledController, env: Bindings) {
  const tasks = SCHEDULE[controller.cron];
  if (!tasks) {
    log("error", "cron.unknown", { cron: controller.cron });
    return;
  }
  for (const name of tasks) await CRON_TASKS[name](env, controller.scheduledTime);
}
