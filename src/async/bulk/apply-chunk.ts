import { type SQL, sql } from "drizzle-orm";
import { type CacheDomain, generationBump, productsBump } from "../../db/cache-generations.ts";
import { rawBatch } from "../../db/raw.ts";
import { forgetGenerations } from "../../edge/generations.ts";
import type { Bindings, Db } from "../../env.ts";
import { constraintViolation, describeError, isUniqueViolation } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { utcDate } from "../../lib/time.ts";
import { type ChunkRange, RECORD_MAX_BYTES } from "./chunking.ts";
import { commitDryRun } from "./dry-run.ts";
import { loadDryRun } from "./dry-run-memory.ts";
import { bulkFeedEntries } from "./feed-entries.ts";
import { addWrites, bookkeeping, isJobClosed, isLedgerConflict, WHOLE_CHUNK } from "./ledger.ts";
import type { RowOps } from "./row-ops.ts";
import type {
  ChunkRecord,
  JobRow,
  Plan,
  Processor,
  ProcessorContext,
  RecordOutcome,
  Unrecorded,
} from "./types.ts";

/**
 * Applying one chunk of a job: its effects, ledger row, log entries and counters in one batch, a
 * replay one record per batch when that batch fails, and the chunk's records failed as a whole
 * (dead letters, lost payloads, a record too large to parse). The message flow around it is
 * src/async/bulk/consumer.ts.
 */

/**
 * Records replayed one per batch in one invocation. Each costs its lookups and its batch (up to
 * about 20 D1 queries for a product record), and one invocation may make at most 1,000 queries
 * (Workers Paid): the rest of the chunk continues in a new message for the same chunk, and the
 * ledger says where to resume.
 */
export const REPLAY_RECORDS_PER_INVOCATION = 25;

/**
 * What became of a chunk in this invocation: `mine` when this invocation wrote the chunk's
 * whole-chunk ledger row (only then does it move the job on, so a redelivered or re-driven message
 * never starts a second chain of messages), `theirs` when another delivery did, `closed` when the
 * job is no longer running, `continues` when a replay goes on in a new message.
 */
export type ChunkResult = "mine" | "theirs" | "closed" | "continues";

/** A dry run's context also carries what the job counted as applied so far (one more query). */
export const processorContext = async (
  env: Bindings,
  db: Db,
  job: JobRow,
  invalidates: readonly CacheDomain[],
  unrecorded: Unrecorded = { rows: 0, unchanged: 0 },
): Promise<ProcessorContext> => ({
  db,
  env,
  job,
  today: utcDate(),
  invalidates,
  unrecorded,
  ...(job.dryRun ? { dryRun: await loadDryRun(env.DB, job.id) } : {}),
});

/** A stop: the job was closed while this invocation worked on it. */
class JobClosed extends Error {}

/** Applies `records` of `chunk` with the processor of the job's operation. */
export async function applyChunk(
  processor: Processor,
  ctx: ProcessorContext,
  chunk: number,
  records: ChunkRecord[],
  replaying: boolean,
): Promise<ChunkResult> {
  const { env, job } = ctx;
  if (!replaying) {
    try {
      await commitPlan(ctx, chunk, WHOLE_CHUNK, await processor.plan(ctx, records));
      return "mine";
    } catch (err) {
      if (isLedgerConflict(err)) return "theirs";
      if (isJobClosed(err)) return "closed";
      // One bad record must not sink its neighbours: replay the chunk one record per batch.
    }
  }
  const thisRound = records.slice(0, REPLAY_RECORDS_PER_INVOCATION);
  try {
    for (const record of thisRound) await applyOne(processor, ctx, chunk, record);
  } catch (err) {
    if (err instanceof JobClosed) return "closed";
    throw err;
  }
  if (thisRound.length < records.length) return "continues";
  return closeChunk(env, job, chunk, [], ctx.unrecorded);
}

/**
 * Commits a plan: its ledger row (first), log entries and counters in one batch with its effects.
 * A dry run rehearses the effects after every earlier one in a batch that is rolled back, then
 * commits the rest alone, so it fails, and is replayed, exactly where a real run's batch would.
 */
async function commitPlan(ctx: ProcessorContext, chunk: number, part: number, plan: Plan) {
  await commitWithBooks(ctx, bookkeeping(ctx.job.id, chunk, part, plan.outcomes), plan);
}

/**
 * Bookkeeping first, then the effects, in one batch; a dry run rehearses the effects first instead.
 * A batch with effects also bumps the edge cache generations of the operation's domains, once.
 * What earlier commits wrote (`unrecorded`) is added to the job's `writes` in the same batch; what
 * this one writes, which D1 reports once it committed, becomes the next commit's `unrecorded`: the
 * rows its effects wrote, and its unchanged records (all its succeeded records when it wrote no
 * row, else those whose rows were not stamped, read in the batch after the effects). A
 * redelivery fails on the ledger row first, so nothing counts twice.
 */
export async function commitWithBooks(
  { env, db, job, dryRun, invalidates, unrecorded }: ProcessorContext,
  books: SQL[],
  plan: Pick<Plan, "statements" | "ops" | "unchanged" | "outcomes" | "stamp" | "pruned">,
) {
  const { ops, unchanged, outcomes, stamp } = plan;
  const succeeded = outcomes.filter((o) => o.ok).length;
  if (job.dryRun) {
    if (!dryRun) throw new Error("a dry run's context carries no memory of its effects");
    await commitDryRun(env.DB, dryRun, books, { statements: plan.statements, ops, unchanged, succeeded });
    return;
  }
  // A dry run rehearses every statement after the earlier effects it remembers, which the checks
  // could not see: only a real run leaves out what writes nothing before the batch.
  const statements = plan.pruned && worthChecking(unrecorded) ? await plan.pruned(env.DB) : plan.statements;
  // Before the effects: the products of the variants they delete are still found (cacheBumps).
  const bump = statements.length > 0 && invalidates?.length ? cacheBumps(db, invalidates, ops) : [];
  const carried =
    unrecorded && unrecorded.rows + unrecorded.unchanged > 0 ? [addWrites(job.id, unrecorded)] : [];
  const count = unchanged && statements.length > 0 ? [sql`SELECT (${unchanged}) AS n`] : [];
  // After the effects: the entries name what they stamped (the feed's rows are not the job's writes).
  const feed = ops && stamp && statements.length > 0 ? bulkFeedEntries(ops, stamp) : [];
  const results = await rawBatch(env.DB, [...books, ...carried, ...bump, ...statements, ...count, ...feed]);
  if (bump.length > 0) forgetGenerations();
  if (!unrecorded) return;
  const first = books.length + carried.length + bump.length;
  const rows = results
    .slice(first, first + statements.length)
    .reduce((sum, r) => sum + (r.meta.rows_written ?? 0), 0);
  const marked = Number(
    (results[first + statements.length]?.results[0] as { n?: number } | undefined)?.n ?? 0,
  );
  unrecorded.rows = rows;
  unrecorded.unchanged = rows === 0 ? succeeded : marked;
}

/**
 * Whether a plan's change checks (Plan.pruned) may pay: not when the job's last commit changed
 * every record it wrote (a first send, a feed of new values), where they cost one more round trip
 * and would drop nothing. The figures of that commit are still `unrecorded` when the next plans.
 */
const worthChecking = (last: Unrecorded | undefined) => !(last && last.rows > 0 && last.unchanged === 0);

/**
 * The edge cache bumps of a batch that changes `invalidates`: `products` stamps the buckets of the
 * products the ops name (src/db/cache-generations.ts), every other domain bumps once. Put before the
 * batch's statements: the products of the variants it deletes are still found.
 */
function cacheBumps(db: Db, invalidates: readonly CacheDomain[], ops: RowOps | undefined): SQL[] {
  const changed = invalidates.includes("products") ? ops?.changedProducts() : undefined;
  if (!changed) return [generationBump(db, invalidates).getSQL()];
  const others = invalidates.filter((d) => d !== "products");
  return [...(others.length > 0 ? [generationBump(db, others).getSQL()] : []), ...productsBump(changed)];
}

/** Writes the chunk's whole-chunk ledger row (not exclusive: after replayed parts) with `outcomes`. */
async function closeChunk(
  env: Bindings,
  job: JobRow,
  chunk: number,
  outcomes: RecordOutcome[],
  unrecorded?: Unrecorded,
): Promise<ChunkResult> {
  try {
    await rawBatch(env.DB, [
      ...bookkeeping(job.id, chunk, WHOLE_CHUNK, outcomes, false),
      ...(unrecorded && unrecorded.rows + unrecorded.unchanged > 0 ? [addWrites(job.id, unrecorded)] : []),
    ]);
    if (unrecorded) Object.assign(unrecorded, { rows: 0, unchanged: 0 });
    return "mine";
  } catch (err) {
    if (isLedgerConflict(err)) return "theirs";
    if (isJobClosed(err)) return "closed";
    throw err;
  }
}

async function applyOne(processor: Processor, ctx: ProcessorContext, chunk: number, record: ChunkRecord) {
  const { env, job } = ctx;
  try {
    await commitPlan(ctx, chunk, record.index, await processor.plan(ctx, [record]));
  } catch (err) {
    if (isLedgerConflict(err)) return;
    if (isJobClosed(err)) throw new JobClosed();
    const unique = isUniqueViolation(err);
    const fields = unique ? (processor.conflictFields?.(job, describeError(err), record.data) ?? []) : [];
    const outcome: RecordOutcome = {
      index: record.index,
      ok: false,
      logs: [
        {
          severity: "ERROR",
          code: unique ? "INVALID_FIELD_VALUE" : "OTHER",
          message: unique
            ? `The record conflicts with an existing one (${uniqueColumns(err)} must be unique).`
            : "The record could not be applied because of an unexpected error.",
          identifiers: processor.identify(job, record),
          affected_fields: fields.length > 0 ? fields : null,
        },
      ],
    };
    if (!unique)
      log("error", "job.record_failed", { job_id: job.id, record: record.index, error: describeError(err) });
    await rawBatch(env.DB, bookkeeping(job.id, chunk, record.index, [outcome])).catch((e) => {
      if (isJobClosed(e)) throw new JobClosed();
      if (!isLedgerConflict(e)) throw e;
    });
  }
}

const uniqueColumns = (err: unknown) =>
  constraintViolation("UNIQUE", err)?.replace(/\w+\./g, "") || "a unique field";

const failure = (index: number, code: "OTHER" | "INVALID_FIELD_VALUE", message: string): RecordOutcome => ({
  index,
  ok: false,
  logs: [{ severity: "ERROR", code, message, identifiers: { record: { index } }, affected_fields: null }],
});

/** Counts every record of a chunk not yet applied as failed with an OTHER entry (dead letters, lost payloads). */
export async function failChunk(
  env: Bindings,
  job: JobRow,
  chunk: number,
  range: ChunkRange,
  done: Set<number>,
  reason: string,
): Promise<ChunkResult> {
  const outcomes = Array.from({ length: range.count }, (_, i) => range.first + i)
    .filter((index) => !done.has(index))
    .map((index) => failure(index, "OTHER", reason));
  return closeChunk(env, job, chunk, outcomes);
}

/** A record too large to parse safely fails on its own (it always has a chunk to itself). */
export function failOversizedRecord(env: Bindings, job: JobRow, chunk: number, range: ChunkRange) {
  const message = `The record is larger than ${RECORD_MAX_BYTES} bytes of JSON and was not processed.`;
  return closeChunk(env, job, chunk, [failure(range.first, "INVALID_FIELD_VALUE", message)]);
}
