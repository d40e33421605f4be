import { and, between, eq } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { EXPORT_JOB_TYPES, jobChunkRanges, jobChunks, jobs } from "../../db/schema/index.ts";
import type { Bindings, Db } from "../../env.ts";
import { log } from "../../lib/log.ts";
import { isoSeconds } from "../../lib/time.ts";
import { runExportMessage } from "../exports/consumer.ts";
import type { ExportOperations } from "../exports/operation.ts";
import { abandonExport } from "../exports/state.ts";
import {
  applyChunk,
  type ChunkResult,
  failChunk,
  failOversizedRecord,
  processorContext,
} from "./apply-chunk.ts";
import { applyGroup } from "./apply-group.ts";
import {
  type ChunkRange,
  chunkGroup,
  GROUP_MAX_CHUNKS,
  parseChunk,
  payloadKey,
  RECORD_MAX_BYTES,
  spanOf,
} from "./chunking.ts";
import { closeJob, finalizeJob, type OnJobFinalized } from "./finalize.ts";
import { WHOLE_CHUNK } from "./ledger.ts";
import type { BulkOperations } from "./operation.ts";
import type { BulkJobType, JobMessage, JobRow, Unrecorded } from "./types.ts";

/** How a chunk's log line names each result. */
const CHUNK_OUTCOMES: Record<ChunkResult, string> = {
  mine: "applied",
  theirs: "applied_by_another_delivery",
  closed: "job_no_longer_running",
  continues: "replay_continues",
};

interface OpenedChunk {
  job: JobRow;
  /** Ledger parts of this chunk already applied (record indices of a replay, or WHOLE_CHUNK). */
  done: Set<number>;
  range: ChunkRange | undefined;
  /** Byte ranges of this chunk and the following ones (the next group's included). */
  rangeOf: (chunk: number) => ChunkRange | undefined;
  /** Whether a chunk of the next GROUP_MAX_CHUNKS has a ledger row: part of a replay, or whole. */
  recorded: (chunk: number) => boolean;
  /** Whether every chunk from this one to the job's last is applied as a whole. */
  reachesEnd: boolean;
}

/** What the jobs consumer runs: each job type's operation, and what a job's final state sets off. */
export interface JobPipeline {
  operations: BulkOperations;
  exports: ExportOperations;
  onFinalized: OnJobFinalized;
}

const isExport = (job: JobRow): boolean => (EXPORT_JOB_TYPES as readonly string[]).includes(job.type);

/**
 * Applies one chunk of a job, with the following full chunks of its group (chunkGroup, applyGroup),
 * at most once: the chunks' effects, ledger rows, log entries and the summary counters commit in
 * one batch. A redelivered message finds the ledger row and
 * changes nothing. The invocation that applied the chunk enqueues the next one, or finalizes the
 * job after the last; a crash in between is caught by the liveness sweep (src/async/bulk/liveness.ts).
 * The job's records go to the processor of its operation in `pipeline.operations`.
 */
export async function processJobMessage(
  env: Bindings,
  message: JobMessage,
  pipeline: JobPipeline,
): Promise<void> {
  const { operations, onFinalized } = pipeline;
  const started = Date.now();
  const db = createDb(env.DB);
  // The chunk's bytes do not depend on the job row: R2 reads them while D1 answers.
  const early = message.at ? startEarly(readRange(env, message.jobId, message.at)) : null;
  const opened = await openChunk(db, message.jobId, message.chunk);
  if (!opened) return;
  const { job, done, range } = opened;
  // An export reads the catalog, not a payload: its messages are pages of its file (src/async/exports/).
  if (isExport(job)) return runExportMessage(env, db, job, message, pipeline.exports, onFinalized);
  if (job.status !== "running") {
    // A retried message that finished a job already final: its hooks may have failed, run them again.
    if ((message.chunk === job.chunkCount - 1 || opened.reachesEnd) && isFinal(job))
      await onFinalized(env, job);
    return;
  }
  if (!range) return;
  if (done.has(WHOLE_CHUNK)) {
    // Applied by an earlier delivery, which moved the job on; finalizing twice is harmless.
    if (opened.reachesEnd) await finalizeJob(env, db, job.id, onFinalized);
    return;
  }
  // A chunk not yet touched takes the following ones of its group along (chunkGroup).
  const group = done.size === 0 ? chunkGroup(message.chunk, opened.rangeOf, opened.recorded) : [range];
  const span = spanOf(group);
  let outcome: { result: ChunkResult; chunk: number } = { result: "mine", chunk: message.chunk };
  // Rows earlier commits wrote, added to the job's `writes` with the next commit (ProcessorContext).
  const unrecorded: Unrecorded = { ...(message.written ?? { rows: 0, unchanged: 0 }) };
  if (range.count === 1 && range.length > RECORD_MAX_BYTES) {
    outcome.result = await failOversizedRecord(env, job, message.chunk, range);
  } else {
    const at = message.at;
    const sameRange = at?.[0] === span.offset && at?.[1] === span.length;
    const bytes = await (sameRange && early
      ? early
      : () => readRange(env, job.id, [span.offset, span.length]))();
    const records = bytes === null ? null : parseChunk(bytes, span);
    if (records === null) {
      outcome.result = await failChunk(
        env,
        job,
        message.chunk,
        range,
        done,
        "The stored payload of this chunk could not be read.",
      );
    } else {
      const { processor, invalidates } = operations[job.type as BulkJobType];
      const ctx = await processorContext(env, db, job, invalidates, unrecorded);
      if (group.length > 1) {
        outcome = await applyGroup(processor, ctx, message.chunk, group, records);
      } else {
        const pending = records.filter((r) => !done.has(r.index));
        outcome.result = await applyChunk(processor, ctx, message.chunk, pending, done.size > 0);
      }
    }
  }
  log("info", "job.chunk", {
    job_id: job.id,
    chunk: message.chunk,
    records: span.count,
    duration_ms: Date.now() - started,
    outcome: CHUNK_OUTCOMES[outcome.result],
  });
  if (outcome.result === "continues") {
    // The replay goes on in a fresh invocation (its own D1 query budget).
    const next: JobMessage = { jobId: job.id, chunk: outcome.chunk, written: unrecorded };
    await env.JOBS_QUEUE.send(next, { contentType: "json" });
  } else if (outcome.result === "mine") {
    await advance(env, db, job, outcome.chunk, opened.rangeOf, onFinalized, unrecorded);
  }
}

const isFinal = (job: JobRow) => job.status !== "pending" && job.status !== "running";

/**
 * One round trip (a batch) for what a message needs first: the job moved from `pending` to
 * `running` on its first message, the job row, the ledger rows of this chunk and the next ones of
 * its group, and the byte ranges of this chunk and of the chunks up to the end of the next group.
 * Null when the job is gone.
 */
async function openChunk(db: Db, jobId: string, chunk: number): Promise<OpenedChunk | null> {
  const now = isoSeconds();
  const [, rows, parts, ranges] = await db.batch([
    db
      .update(jobs)
      .set({ status: "running", startedAt: now, heartbeatAt: now })
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "pending"))),
    db.select().from(jobs).where(eq(jobs.id, jobId)),
    db
      .select({ chunk: jobChunks.chunkIndex, part: jobChunks.part })
      .from(jobChunks)
      .where(
        and(eq(jobChunks.jobId, jobId), between(jobChunks.chunkIndex, chunk, chunk + GROUP_MAX_CHUNKS - 1)),
      ),
    db
      .select()
      .from(jobChunkRanges)
      .where(
        and(
          eq(jobChunkRanges.jobId, jobId),
          between(jobChunkRanges.chunkIndex, chunk, chunk + 2 * GROUP_MAX_CHUNKS),
        ),
      ),
  ]);
  const job = rows[0];
  if (!job) return null;
  const rangeOf = (index: number): ChunkRange | undefined => {
    const row = ranges.find((r) => r.chunkIndex === index);
    return (
      row && {
        first: row.firstRecord,
        count: row.recordCount,
        offset: row.byteOffset,
        length: row.byteLength,
      }
    );
  };
  const whole = new Set(parts.filter((p) => p.part === WHOLE_CHUNK).map((p) => p.chunk));
  const last = job.chunkCount - 1;
  const reachesEnd =
    chunk <= last &&
    last < chunk + GROUP_MAX_CHUNKS &&
    Array.from({ length: last - chunk + 1 }, (_, i) => chunk + i).every((c) => whole.has(c));
  return {
    job,
    done: new Set(parts.filter((p) => p.chunk === chunk).map((p) => p.part)),
    range: rangeOf(chunk),
    rangeOf,
    recorded: (index) => parts.some((p) => p.chunk === index),
    reachesEnd,
  };
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

async function readRange(env: Bindings, jobId: string, [offset, length]: [number, number]) {
  const object = await env.PAYLOADS.get(payloadKey(jobId), { range: { offset, length } });
  if (!object) return null;
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Enqueues the chunk after `chunk`, or finalizes after the last one. The message carries the byte
 * range of the group that chunk starts (nothing of it is applied yet), read while D1 opens it, and
 * what the last commit wrote that the job's `writes` does not count yet.
 */
async function advance(
  env: Bindings,
  db: Db,
  job: JobRow,
  chunk: number,
  rangeOf: (chunk: number) => ChunkRange | undefined,
  onFinalized: OnJobFinalized,
  written: Unrecorded = { rows: 0, unchanged: 0 },
) {
  if (chunk + 1 < job.chunkCount) {
    const next = chunkGroup(chunk + 1, rangeOf);
    const span = next.length > 0 ? spanOf(next) : undefined;
    const message: JobMessage = {
      jobId: job.id,
      chunk: chunk + 1,
      ...(span ? { at: [span.offset, span.length] } : {}),
      ...(written.rows + written.unchanged > 0 ? { written } : {}),
    };
    await env.JOBS_QUEUE.send(message, { contentType: "json" });
  } else {
    await finalizeJob(env, db, job.id, onFinalized, { written });
  }
}

/** A message the queue gave up on: its chunk's records fail with OTHER and later chunks still run. */
export async function processDeadLetter(
  env: Bindings,
  message: JobMessage,
  { onFinalized }: JobPipeline,
): Promise<void> {
  const db = createDb(env.DB);
  const opened = await openChunk(db, message.jobId, message.chunk);
  if (opened?.job.status === "running" && isExport(opened.job)) {
    const reason = "The export could not write its file after repeated attempts.";
    await closeJob(env, db, opened.job.id, reason, onFinalized);
    await abandonExport(env, opened.job.id);
    return;
  }
  if (opened?.job.status !== "running" || !opened.range) return;
  const { job, done, range } = opened;
  if (done.has(WHOLE_CHUNK)) {
    if (opened.reachesEnd) await finalizeJob(env, db, job.id, onFinalized);
    return;
  }
  const reason = "This chunk could not be processed after repeated attempts.";
  if ((await failChunk(env, job, message.chunk, range, done, reason)) === "mine") {
    await advance(env, db, job, message.chunk, opened.rangeOf, onFinalized);
  }
}
