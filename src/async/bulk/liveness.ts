import { sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { rawAll, rawBatch } from "../../db/raw.ts";
import { jobs } from "../../db/schema/index.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import type { Bindings } from "../../env.ts";
import { log } from "../../lib/log.ts";
import { isoSeconds } from "../../lib/time.ts";
import { closeJob, type OnJobFinalized } from "./finalize.ts";
import { WHOLE_CHUNK } from "./ledger.ts";
import type { JobMessage } from "./types.ts";

/**
 * A job that shows no sign of life (no chunk committed, no start, no re-drive) for this long is
 * re-driven; `JOB_STALL_SECONDS` overrides it (`npm run dev` uses 30 s so a local crash recovers
 * within a minute or so). Longer than a chunk's queue retries (5 + 10 + 15 + 20 s) and any chunk's
 * work, so a live job is not re-driven; when one is anyway, nothing is applied twice (the ledger)
 * and no second chain of messages starts (only the delivery that applied a chunk moves on).
 */
const DEFAULT_STALL_SECONDS = 300;
/** Re-drives without progress in between before a job is given up. */
export const MAX_REDRIVES = 3;
/** Jobs examined per sweep; the rest wait for the next minute. */
const SWEEP_LIMIT = 50;

export const stallSeconds = (env: Pick<Bindings, "JOB_STALL_SECONDS">) => {
  const value = Number(env.JOB_STALL_SECONDS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_STALL_SECONDS;
};

interface StalledJob {
  id: string;
  redrives: number;
}

/**
 * The minutely liveness sweep: a `pending` or `running` job without a sign of life for the stall
 * time gets its first chunk not yet in the ledger enqueued again (the chain of messages continues
 * from there, in payload order); after MAX_REDRIVES re-drives without progress it ends final, its
 * unprocessed records failed with one OTHER entry.
 */
export async function sweepStalledJobs(env: Bindings, now: number, onFinalized: OnJobFinalized) {
  const stall = stallSeconds(env);
  const stalled = await rawAll<StalledJob>(
    env.DB,
    // The status index named: with the statistics of a few jobs SQLite walked every job in order.
    sql`SELECT id, redrives FROM jobs${indexedBy(jobs, ["status", "created_at"])}
        WHERE status IN ('pending', 'running') AND COALESCE(heartbeat_at, created_at) <= ${isoSeconds(now - stall * 1000)}
        ORDER BY created_at LIMIT ${SWEEP_LIMIT}`,
  );
  const outcome = { redriven: [] as string[], given_up: [] as string[] };
  for (const job of stalled) {
    if (job.redrives >= MAX_REDRIVES) {
      const reason = `The job made no progress for ${stall} seconds after ${MAX_REDRIVES} re-drives.`;
      if (await closeJob(env, createDb(env.DB), job.id, reason, onFinalized)) outcome.given_up.push(job.id);
    } else if (await redrive(env, job, isoSeconds(now))) {
      outcome.redriven.push(job.id);
    }
  }
  if (stalled.length > 0) log("warn", "job.liveness", outcome);
  return outcome;
}

/**
 * Claims the re-drive (the UPDATE only matches the `redrives` count just read, so two overlapping
 * sweeps re-drive once) and reads, in the same batch, the first chunk without a whole-chunk ledger
 * row; then enqueues it. A job whose chunks are all recorded only lacks its finalization: the
 * message of its last chunk does that.
 */
async function redrive(env: Bindings, job: StalledJob, now: string): Promise<boolean> {
  const [claimed, next] = await rawBatch(env.DB, [
    sql`UPDATE jobs SET redrives = redrives + 1, heartbeat_at = ${now}
        WHERE id = ${job.id} AND redrives = ${job.redrives} AND status IN ('pending', 'running')
        RETURNING chunk_count`,
    sql`SELECT r.chunk_index AS chunk, r.byte_offset AS offset, r.byte_length AS length
        FROM job_chunk_ranges r
        WHERE r.job_id = ${job.id} AND NOT EXISTS (SELECT 1 FROM job_chunks l
          WHERE l.job_id = r.job_id AND l.chunk_index = r.chunk_index AND l.part = ${WHOLE_CHUNK})
        ORDER BY r.chunk_index LIMIT 1`,
  ]);
  const claim = claimed?.results[0] as { chunk_count: number } | undefined;
  if (!claim) return false;
  const first = next?.results[0] as { chunk: number; offset: number; length: number } | undefined;
  const message: JobMessage = first
    ? { jobId: job.id, chunk: first.chunk, at: [first.offset, first.length] }
    : { jobId: job.id, chunk: claim.chunk_count - 1 };
  await env.JOBS_QUEUE.send(message, { contentType: "json" });
  return true;
}
