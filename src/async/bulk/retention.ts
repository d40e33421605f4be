import { sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { rawAll, rawBatch } from "../../db/raw.ts";
import { jobChunkRanges, jobChunks, jobExports, jobLogs, jobs } from "../../db/schema/index.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import type { Bindings } from "../../env.ts";
import { isoSeconds } from "../../lib/time.ts";
import { resultKey } from "../exports/keys.ts";
import { payloadKey } from "./chunking.ts";
import { closeJob, type OnJobFinalized } from "./finalize.ts";

/** Jobs per round: one select, one R2 delete (of at most 1,000 keys) and one D1 batch. */
const BATCH = 100;
const DAY_MS = 86_400_000;

/** The longest retention window: a job not final by then never will be. */
const LONGEST_WINDOW_MS = 30 * DAY_MS;

/**
 * Jobs' retention (hourly): jobs with their logs, ledger rows, chunk ranges, R2 payload and export
 * file (with the bytes an unfinished export carried between messages) go 5 days
 * after creation when `done`, 30 days when `failed` or `done_with_errors`. A job still `pending` or
 * `running` after 30 days is failed first (its unprocessed records count as failed), then
 * collected like any other. Bounded batches; safe to run twice or to be interrupted (payloads are
 * deleted before their job row, so a rerun finds what is left).
 */
export async function runJobRetention(
  env: Bindings,
  now: number,
  onFinalized: OnJobFinalized,
  maxBatches = 20,
): Promise<{ jobs: number }> {
  const db = createDb(env.DB);
  const abandoned = await db.all<{ id: string }>(sql`
    SELECT id FROM jobs${indexedBy(jobs, ["status", "created_at"])}
    WHERE status IN ('pending', 'running') AND created_at <= ${isoSeconds(now - LONGEST_WINDOW_MS)}
    LIMIT ${BATCH}`);
  for (const { id } of abandoned) {
    await closeJob(env, db, id, "The job did not finish within 30 days.", onFinalized);
  }
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    // Each status's range of its index, named: the statistics of a few jobs made SQLite read every
    // job row (and with none, an `OR` of the two ranges did too).
    const byStatus = indexedBy(jobs, ["status", "created_at"]);
    const expired = await db.all<{ id: string }>(sql`
      SELECT id FROM jobs${byStatus} WHERE status = 'done' AND created_at <= ${isoSeconds(now - 5 * DAY_MS)}
      UNION ALL
      SELECT id FROM jobs${byStatus}
      WHERE status IN ('failed', 'done_with_errors') AND created_at <= ${isoSeconds(now - LONGEST_WINDOW_MS)}
      LIMIT ${BATCH}`);
    if (expired.length === 0) break;
    await deletePayloads(env, expired);
    const ids = JSON.stringify(expired.map((j) => j.id));
    // rawBatch: drizzle's own batch cannot bind the parameters of raw `sql` queries.
    await rawBatch(env.DB, [
      // Each names its job index: an `IN` on a key is costed against a scan of a table believed small.
      sql`DELETE FROM job_logs${indexedBy(jobLogs, ["job_id"])} WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM job_chunks${indexedBy(jobChunks, ["job_id"])} WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM job_chunk_ranges${indexedBy(jobChunkRanges, ["job_id"])} WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM job_exports${indexedBy(jobExports, ["job_id"])} WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM jobs${indexedBy(jobs, ["id"])} WHERE id IN (SELECT value FROM json_each(${ids}))`,
    ]);
    deleted += expired.length;
  }
  return { jobs: deleted };
}

/**
 * The payload and result objects by their known keys (no listing), and the carried bytes an export
 * left; a round holds fewer than R2's 1,000 keys per call (3 per job at most).
 */
async function deletePayloads(env: Bindings, expired: { id: string }[]) {
  const carried = await rawAll<{ key: string }>(
    env.DB,
    sql`SELECT e.carry_key AS key FROM (SELECT value FROM json_each(${JSON.stringify(expired.map((j) => j.id))})) AS k
        CROSS JOIN job_exports e ON e.job_id = k.value WHERE e.carry_key IS NOT NULL`,
  );
  await env.PAYLOADS.delete([
    ...expired.flatMap((j) => [payloadKey(j.id), resultKey(j.id)]),
    ...carried.map((c) => c.key),
  ]);
}
