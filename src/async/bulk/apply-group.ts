import { applyChunk, type ChunkResult, commitWithBooks } from "./apply-chunk.ts";
import type { ChunkRange } from "./chunking.ts";
import { bookkeeping, isJobClosed, isLedgerConflict, WHOLE_CHUNK } from "./ledger.ts";
import type { ChunkRecord, Processor, ProcessorContext } from "./types.ts";

/** What became of a group, and the last chunk it concerns (the one a chain moves on from, or continues). */
export interface GroupResult {
  result: ChunkResult;
  chunk: number;
}

const inRange = (range: ChunkRange) => (r: { index: number }) =>
  r.index >= range.first && r.index < range.first + range.count;

/**
 * Applies consecutive chunks `first`, `first + 1`, … (`ranges`, see chunkGroup) with one plan and
 * one batch: every chunk's whole-chunk ledger row (exclusive, so a second delivery, or a replay
 * already begun, fails the batch before any effect), its log entries and counters, then the
 * effects. The processor plans the records in payload order, later records seeing what earlier ones
 * write, so the outcome is the one a chain of one message per chunk reaches. If the batch fails for
 * another reason (a record violating a UNIQUE constraint), the chunks apply one at a time exactly
 * as their own messages would, each replayed one record per batch if its batch fails.
 */
export async function applyGroup(
  processor: Processor,
  ctx: ProcessorContext,
  first: number,
  ranges: ChunkRange[],
  records: ChunkRecord[],
): Promise<GroupResult> {
  const { job } = ctx;
  const plan = await processor.plan(ctx, records);
  const books = ranges.flatMap((range, i) =>
    bookkeeping(job.id, first + i, WHOLE_CHUNK, plan.outcomes.filter(inRange(range))),
  );
  try {
    await commitWithBooks(ctx, books, plan);
    return { result: "mine", chunk: first + ranges.length - 1 };
  } catch (err) {
    if (isLedgerConflict(err)) return { result: "theirs", chunk: first };
    if (isJobClosed(err)) return { result: "closed", chunk: first };
  }
  for (const [i, range] of ranges.entries()) {
    const result = await applyChunk(processor, ctx, first + i, records.filter(inRange(range)), false);
    if (result !== "mine") return { result, chunk: first + i };
  }
  return { result: "mine", chunk: first + ranges.length - 1 };
}
