import { sweepStalledJobs } from "./async/bulk/liveness.ts";
import { runJobRetention } from "./async/bulk/retention.ts";
import { purgeOldWebhookDeliveries } from "./async/deliveries/retention.ts";
import { purgeOldFeedEntries } from "./changes/feed-retention.ts";
import { refreshPlannerStatistics } from "./db/planner-statistics.ts";
import type { Bindings } from "./env.ts";
import { purgeExpiredIdempotencyKeys } from "./http/idempotency.ts";
import { describeError } from "./lib/errors.ts";
import { log } from "./lib/log.ts";
import { isoSeconds } from "./lib/time.ts";
import { onJobFinalized } from "./resources/webhooks/job-finalized.ts";

type CronTask = (env: Bindings, now: number) => Promise<unknown>;

/** Every task the cron triggers run, by name. `now` is the trigger's scheduled time. */
export const CRON_TASKS = {
  "stale-job-sweep": (env, now) => sweepStalledJobs(env, now, onJobFinalized),
  "job-retention": (env, now) => runJobRetention(env, now, onJobFinalized),
  "idempotency-key-purge": purgeIdempotencyKeys,
  "webhook-delivery-retention": (env, now) => purgeOldWebhookDeliveries(env.DB, now),
  "change-feed-retention": (env, now) => purgeOldFeedEntries(env.DB, now),
  "planner-statistics": (env) => refreshPlannerStatistics(env),
} satisfies Record<string, CronTask>;

type CronTaskName = keyof typeof CRON_TASKS;

/** The cron triggers of wrangler.toml and the tasks each runs, in order. */
const SCHEDULE: Record<string, CronTaskName[]> = {
  "* * * * *": ["stale-job-sweep"],
  "0 * * * *": [
    "job-retention",
    "idempotency-key-purge",
    "webhook-delivery-retention",
    "change-feed-retention",
    "planner-statistics",
  ],
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

/**
 * Runs the tasks of the trigger in order, each even if one before it threw: the tasks are
 * independent, and a trigger fires only once an hour, so one failing task (D1 busy during a
 * statistics refresh, an R2 error while collecting payloads) would otherwise leave the others undone
 * until the next hour, and again every hour it keeps failing. A failure is logged as it happens;
 * once all ran, the invocation still ends in an error naming them, so Cron Events show it failed.
 * `tasks` is the table to run from (a test swaps one task for one that throws).
 */
export async function runCron(
  controller: ScheduledController,
  env: Bindings,
  tasks: Record<CronTaskName, CronTask> = CRON_TASKS,
) {
  const names = SCHEDULE[controller.cron];
  if (!names) {
    log("error", "cron.unknown", { cron: controller.cron });
    return;
  }
  const failed: unknown[] = [];
  for (const name of names) {
    try {
      await tasks[name](env, controller.scheduledTime);
    } catch (err) {
      log("error", "cron.task_failed", { cron: controller.cron, task: name, error: describeError(err) });
      failed.push(err);
    }
  }
  if (failed.length > 0)
    throw new AggregateError(failed, `cron ${controller.cron}: ${failed.length} task(s) failed`);
}
