import { sql } from "drizzle-orm";
import { rawBatch } from "../db/raw.ts";
import type { Bindings, Db } from "../env.ts";
import type { JobRow } from "./types.ts";

export type FinalizedHook = (env: Bindings, job: JobRow) => Promise<void>;

const hooks: FinalizedHook[] = [];

/**
 * Lets later stages (webhooks) react to a job reaching its final state. Hooks run at least once:
 * if one throws, the queue retries the last chunk's message and the hooks run again, so a hook
 * must be idempotent (webhook deliveries use one message id per job and subscription).
 */
export const onJobFinalized = (hook: FinalizedHook) => hooks.push(hook);

export async function runFinalizedHooks(env: Bindings, job: JobRow) {
  for (const hook of hooks) await hook(env, job);
}

/**
 * Writes the final INFO summary and the final status derived from the counters, once: both
 * statements only act while the job is `running`, and the call whose UPDATE changed the row runs
 * the hooks.
 */
export async function finalizeJob(env: Bindings, db: Db, jobId: string): Promise<JobRow | null> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const [, updated] = await rawBatch(env.DB, [
    sql`INSERT INTO job_logs (job_id, created_at, severity, code, message)
      SELECT id, ${now}, 'INFO', NULL,
        printf('Job finished: %d of %d records processed, %d succeeded, %d failed.',
          processed_records, total_records, succeeded_records, failed_records)
      FROM jobs WHERE id = ${jobId} AND status = 'running'`,
    sql`UPDATE jobs SET
        log_info_count = log_info_count + 1,
        status = CASE WHEN succeeded_records = 0 THEN 'failed'
                      WHEN failed_records = 0 THEN 'done'
                      ELSE 'done_with_errors' END,
        finished_at = ${now}
      WHERE id = ${jobId} AND status = 'running'
      RETURNING id`,
  ]);
  if ((updated?.results ?? []).length === 0) return null;
  const job = await db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, jobId) });
  if (!job) return null;
  await runFinalizedHooks(env, job);
  return job;
}
