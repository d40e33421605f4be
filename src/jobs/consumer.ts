import { and, eq } from "drizzle-orm";
import { createDb } from "../db/client.ts";
import { rawBatch } from "../db/raw.ts";
import { jobChunks, jobs } from "../db/schema/index.ts";
import type { Bindings, Db } from "../env.ts";
import { chunkKey } from "./chunking.ts";
import { finalizeJob, runFinalizedHooks } from "./finalize.ts";
import { bookkeeping, describe, isLedgerConflict, WHOLE_CHUNK } from "./ledger.ts";
import { processorFor } from "./processors/index.ts";
import type { ChunkRecord, JobMessage, JobRow, ProcessorContext, RecordOutcome } from "./types.ts";

const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Records replayed one per batch in one invocation. Each costs its lookups and its batch (up to
 * about 20 D1 queries for a product record), and one invocation may make at most 1,000 queries
 * (Workers Paid): the rest of the chunk continues in a new message for the same chunk, and the
 * ledger says where to resume.
 */
export const REPLAY_RECORDS_PER_INVOCATION = 25;

/**
 * Applies one chunk of a job, at most once: the chunk's effects, its ledger row, its log entries
 * and the summary counters commit in one batch. A redelivered message finds the ledger row and only
 * moves on. Then the next chunk is enqueued, or the job is finalized after the last one.
 */
export async function processJobMessage(env: Bindings, message: JobMessage): Promise<void> {
  const db = createDb(env.DB);
  // The chunk's payload does not depend on the job row: R2 reads it while D1 answers.
  const payload = startEarly(readChunk(env, message.jobId, message.chunk));
  const opened = await openChunk(db, message.jobId, message.chunk);
  if (!opened) return;
  const { job, done } = opened;
  if (job.status !== "running") {
    // A retried last message of a job already final: its hooks may have failed, run them again.
    if (message.chunk === job.chunkCount - 1) await runFinalizedHooks(env, job);
    return;
  }
  if (!done.has(WHOLE_CHUNK)) {
    const records = await payload();
    if (records === null) {
      await failChunk(env, job, message.chunk, done, "The stored payload of this chunk could not be read.");
    } else {
      const pending = records.filter((r) => !done.has(r.index));
      const complete = await applyChunk(env, db, job, message.chunk, pending, done.size > 0);
      if (!complete) {
        // The replay goes on in a fresh invocation (its own D1 query budget).
        await env.JOBS_QUEUE.send(message, { contentType: "json" });
        return;
      }
    }
  }
  await advance(env, db, job, message.chunk);
}

/**
 * One round trip (a batch) for what a message needs first: the job moved from `pending` to
 * `running` on its first message, the job row, and the ledger parts of this chunk already applied
 * (the record indices of a replay, or WHOLE_CHUNK). Null when the job is gone.
 */
async function openChunk(
  db: Db,
  jobId: string,
  chunk: number,
): Promise<{ job: JobRow; done: Set<number> } | null> {
  const [, rows, parts] = await db.batch([
    db
      .update(jobs)
      .set({ status: "running", startedAt: nowIso() })
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "pending"))),
    db.select().from(jobs).where(eq(jobs.id, jobId)),
    db
      .select({ part: jobChunks.part })
      .from(jobChunks)
      .where(and(eq(jobChunks.jobId, jobId), eq(jobChunks.chunkIndex, chunk))),
  ]);
  const job = rows[0];
  return job ? { job, done: new Set(parts.map((r) => r.part)) } : null;
}

/** Starts `work` now; its result, or its error, comes only to the caller that asks for it. */
function startEarly<T>(work: Promise<T>): () => Promise<T> {
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async () => {
    const result = await settled;
    if (!result.ok) throw result.error;
    return result.value;
  };
}

async function readChunk(env: Bindings, jobId: string, chunk: number): Promise<ChunkRecord[] | null> {
  const object = await env.PAYLOADS.get(chunkKey(jobId, chunk));
  if (!object) return null;
  try {
    const parsed = JSON.parse(await object.text()) as unknown;
    return Array.isArray(parsed) ? (parsed as ChunkRecord[]) : null;
  } catch {
    return null;
  }
}

const context = (env: Bindings, db: Db, job: JobRow): ProcessorContext => ({
  db,
  env,
  job,
  today: new Date().toISOString().slice(0, 10),
});

/** Returns false when records of a replay are left for another invocation. */
async function applyChunk(
  env: Bindings,
  db: Db,
  job: JobRow,
  chunk: number,
  records: ChunkRecord[],
  replaying: boolean,
): Promise<boolean> {
  const processor = processorFor(job.type);
  const ctx = context(env, db, job);
  if (!replaying) {
    try {
      const plan = await processor.plan(ctx, records);
      await rawBatch(env.DB, [...bookkeeping(job.id, chunk, WHOLE_CHUNK, plan.outcomes), ...plan.statements]);
      return true;
    } catch (err) {
      if (isLedgerConflict(err)) return true;
      // One bad record must not sink its neighbours: replay the chunk one record per batch.
    }
  }
  const thisRound = records.slice(0, REPLAY_RECORDS_PER_INVOCATION);
  for (const record of thisRound) await applyOne(ctx, chunk, record);
  if (thisRound.length < records.length) return false;
  await rawBatch(env.DB, bookkeeping(job.id, chunk, WHOLE_CHUNK, [], false)).catch((err) => {
    if (!isLedgerConflict(err)) throw err;
  });
  return true;
}

async function applyOne(ctx: ProcessorContext, chunk: number, record: ChunkRecord) {
  const { env, job } = ctx;
  try {
    const plan = await processorFor(job.type).plan(ctx, [record]);
    await rawBatch(env.DB, [...bookkeeping(job.id, chunk, record.index, plan.outcomes), ...plan.statements]);
  } catch (err) {
    if (isLedgerConflict(err)) return;
    const processor = processorFor(job.type);
    const unique = /UNIQUE constraint failed/.test(describe(err));
    const fields = unique ? (processor.conflictFields?.(job, describe(err), record.data) ?? []) : [];
    const outcome: RecordOutcome = {
      index: record.index,
      ok: false,
      logs: [
        {
          severity: "ERROR",
          code: unique ? "INVALID_FIELD_VALUE" : "OTHER",
          message: unique
            ? `The record conflicts with an existing one (${uniqueColumns(describe(err))} must be unique).`
            : "The record could not be applied because of an unexpected error.",
          identifiers: processor.identify(job, record),
          affected_fields: fields.length > 0 ? fields : null,
        },
      ],
    };
    if (!unique) console.error(JSON.stringify({ level: "error", job_id: job.id, error: describe(err) }));
    await rawBatch(env.DB, bookkeeping(job.id, chunk, record.index, [outcome])).catch((e) => {
      if (!isLedgerConflict(e)) throw e;
    });
  }
}

const uniqueColumns = (message: string) =>
  /UNIQUE constraint failed: ([\w., ]+)/.exec(message)?.[1]?.replace(/\w+\./g, "") ?? "a unique field";

/** Counts every record of a chunk not yet applied as failed with an OTHER entry (dead letters, lost payloads). */
export async function failChunk(
  env: Bindings,
  job: JobRow,
  chunk: number,
  done: Set<number>,
  reason: string,
) {
  const sizes = (job.params.chunkSizes as number[] | undefined) ?? [];
  const start = sizes.slice(0, chunk).reduce((a, b) => a + b, 0);
  const indices = Array.from({ length: sizes[chunk] ?? 0 }, (_, i) => start + i).filter((i) => !done.has(i));
  const outcomes: RecordOutcome[] = indices.map((index) => ({
    index,
    ok: false,
    logs: [
      {
        severity: "ERROR",
        code: "OTHER",
        message: reason,
        identifiers: { record: { index } },
        affected_fields: null,
      },
    ],
  }));
  await rawBatch(env.DB, bookkeeping(job.id, chunk, WHOLE_CHUNK, outcomes, false)).catch((err) => {
    if (!isLedgerConflict(err)) throw err;
  });
}

/** Enqueues the next chunk, or finalizes after the last one. */
export async function advance(env: Bindings, db: Db, job: JobRow, chunk: number) {
  if (chunk + 1 < job.chunkCount) {
    const next: JobMessage = { jobId: job.id, chunk: chunk + 1 };
    await env.JOBS_QUEUE.send(next, { contentType: "json" });
  } else {
    await finalizeJob(env, db, job.id);
  }
}

/** A message the queue gave up on: its chunk's records fail with OTHER and later chunks still run. */
export async function processDeadLetter(env: Bindings, message: JobMessage): Promise<void> {
  const db = createDb(env.DB);
  const opened = await openChunk(db, message.jobId, message.chunk);
  if (opened?.job.status !== "running") return;
  const { job, done } = opened;
  if (!done.has(WHOLE_CHUNK)) {
    await failChunk(
      env,
      job,
      message.chunk,
      done,
      "This chunk could not be processed after repeated attempts.",
    );
  }
  await advance(env, db, job, message.chunk);
}
