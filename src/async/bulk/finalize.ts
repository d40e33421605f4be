import { type SQL, sql } from "drizzle-orm";
import { rawBatch } from "../../db/raw.ts";
import type { Bindings, Db } from "../../env.ts";
import { isoSeconds } from "../../lib/time.ts";
import type { JobRow } from "./types.ts";

/**
 * What a job reaching its final state sets off (its webhook deliveries), handed to every stage that
 * finalizes jobs, since no pipeline imports a resource. It runs at least once: if it throws, the
 * queue retries the last chunk's message and it runs again, so it must be idempotent (webhook
 * deliveries use one message id per job and subscription).
 */
export type OnJobFinalized = (env: Bindings, job: JobRow) => Promise<void>;

const OPEN = sql`status IN ('pending', 'running')`;

/**
 * How the final status follows from the counters: a bulk job (`records`) is `failed` when no record
 * succeeded; an export whose file is complete (`file`) is `done` when nothing failed, even when it
 * matched no row (an empty file).
 */
type StatusRule = "records" | "file";

const STATUS: Record<StatusRule, SQL> = {
  records: sql`CASE WHEN succeeded_records = 0 THEN 'failed'
                    WHEN failed_records = 0 THEN 'done'
                    ELSE 'done_with_errors' END`,
  file: sql`CASE WHEN failed_records = 0 THEN 'done'
                 WHEN succeeded_records = 0 THEN 'failed'
                 ELSE 'done_with_errors' END`,
};

/** The final INFO summary and the final status derived from the counters, for a job not yet final. */
/** How a job is finalized: its status rule, and what its last commit wrote that no batch recorded yet. */
export interface FinalOptions {
  rule?: StatusRule;
  written?: { rows: number; unchanged: number };
}

const finalStatements = (
  jobId: string,
  now: string,
  { rule = "records", written = { rows: 0, unchanged: 0 } }: FinalOptions = {},
) => [
  // A dry run's memory of its effects serves only its own later chunks.
  sql`DELETE FROM job_dry_run_effects WHERE job_id = ${jobId}`,
  sql`INSERT INTO job_logs (job_id, created_at, severity, code, message)
    SELECT id, ${now}, 'INFO', NULL,
      printf('Job finished: %d of %d records processed, %d succeeded, %d failed.',
        processed_records, total_records, succeeded_records, failed_records)
    FROM jobs WHERE id = ${jobId} AND ${OPEN}`,
  sql`UPDATE jobs SET
      log_info_count = log_info_count + 1,
      status = ${STATUS[rule]},
      finished_at = ${now},
      rows_written = rows_written + ${written.rows},
      unchanged_records = unchanged_records + ${written.unchanged}
    WHERE id = ${jobId} AND ${OPEN}
    RETURNING id`,
];

/**
 * Writes the final INFO summary and the final status derived from the counters, once: the
 * statements only act while the job is not final, and the call whose UPDATE changed the row runs
 * the hooks. `written`: what the last commit wrote, not yet in the job's `writes`.
 */
export async function finalizeJob(
  env: Bindings,
  db: Db,
  jobId: string,
  onFinalized: OnJobFinalized,
  options: FinalOptions = {},
) {
  const now = isoSeconds();
  const results = await rawBatch(db.$client, finalStatements(jobId, now, options));
  return afterFinal(env, db, jobId, results.at(-1), onFinalized);
}

/**
 * Ends a job that will not run to its end (canceled, no progress, too old): every record not yet
 * processed counts as failed, with one OTHER entry saying why, then the job is finalized as usual
 * (status by the counter rule, summary entry, hooks). One transaction: a chunk of this job still in
 * flight can no longer commit afterwards (its ledger row needs a running job). Null when the job
 * was already final.
 */
export async function closeJob(
  env: Bindings,
  db: Db,
  jobId: string,
  reason: string,
  onFinalized: OnJobFinalized,
): Promise<JobRow | null> {
  const now = isoSeconds();
  const unprocessed = sql`total_records > processed_records`;
  const results = await rawBatch(db.$client, [
    sql`INSERT INTO job_logs (job_id, created_at, severity, code, message)
      SELECT id, ${now}, 'ERROR', 'OTHER',
        printf('%s %d of %d records were not processed and count as failed.',
          ${reason}, total_records - processed_records, total_records)
      FROM jobs WHERE id = ${jobId} AND ${OPEN} AND ${unprocessed}`,
    sql`UPDATE jobs SET
        failed_records = failed_records + total_records - processed_records,
        log_error_count = log_error_count + 1,
        processed_records = total_records
      WHERE id = ${jobId} AND ${OPEN} AND ${unprocessed}`,
    ...finalStatements(jobId, now),
  ]);
  return afterFinal(env, db, jobId, results.at(-1), onFinalized);
}

async function afterFinal(
  env: Bindings,
  db: Db,
  jobId: string,
  update: D1Result | undefined,
  onFinalized: OnJobFinalized,
): Promise<JobRow | null> {
  if ((update?.results ?? []).length === 0) return null;
  const job = await db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, jobId) });
  if (!job) return null;
  await onFinalized(env, job);
  return job;
}
