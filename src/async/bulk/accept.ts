import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { countRowsRead, countTrip } from "../../db/client.ts";
import { rawBatch } from "../../db/raw.ts";
import type { AppEnv, Bindings } from "../../env.ts";
import { type ChunkPlanner, type ChunkRange, chunkGroup, payloadKey, spanOf } from "./chunking.ts";
import { isDryRun } from "./dry-run.ts";
import type { BulkJobType, JobMessage } from "./types.ts";

/** Chunk ranges per INSERT: their JSON stays far under D1's 1 MB string limit. */
const RANGES_PER_STATEMENT = 10_000;

/**
 * The shared acceptance path of every bulk route, after the request passed its top-level checks:
 * the job row and its chunk ranges are inserted as `pending`, the body is stored in R2 as it was
 * received (one object; chunks are byte ranges of it, so a body of millions of tiny records costs
 * one write), the first chunk is enqueued, and the answer is 202 `[{job_id, status: "pending"}]`.
 * The row goes first: if the Worker dies before the message is sent, the liveness sweep finds a
 * job to drive (or fail), never an orphaned payload.
 */
export async function acceptBulkJob(
  c: Context<AppEnv>,
  type: BulkJobType,
  records: ChunkPlanner,
  params: Record<string, unknown>,
) {
  const jobId = crypto.randomUUID();
  const d1 = c.get("db").$client;
  // The byte range of the first message's group (see chunkGroup), read while D1 opens it.
  const first = spanOf(chunkGroup(0, (i) => records.chunks[i]));
  countTrip(c);
  countRowsRead(c, await rawBatch(d1, jobInserts(jobId, type, records, params, c.get("apiKey").id)));
  try {
    await c.env.PAYLOADS.put(payloadKey(jobId), c.get("rawBody") ?? new Uint8Array(), {
      httpMetadata: { contentType: "application/json" },
    });
    const message: JobMessage = { jobId, chunk: 0, at: [first.offset, first.length] };
    await c.env.JOBS_QUEUE.send(message, { contentType: "json" });
  } catch (err) {
    // Never leave a job `pending` that nothing will run: take it back and let the client retry.
    countTrip(c);
    await discardJob(c.env, d1, jobId);
    throw err;
  }
  return c.json([{ job_id: jobId, status: "pending" as const }], 202, {
    Location: `${new URL(c.req.url).origin}/api/v1/jobs/${jobId}`,
  });
}

/** The `pending` job row and its chunk ranges; `params.options.dry_run` makes it a dry run. */
export function jobInserts(
  jobId: string,
  type: BulkJobType,
  records: ChunkPlanner,
  params: Record<string, unknown>,
  apiKeyId: number | null,
): SQL[] {
  return [
    sql`INSERT INTO jobs (id, type, status, params, dry_run, payload_key, chunk_count, total_records, api_key_id)
        VALUES (${jobId}, ${type}, 'pending', ${JSON.stringify(params)}, ${isDryRun(params.options) ? 1 : 0},
                ${payloadKey(jobId)}, ${records.chunks.length}, ${records.total}, ${apiKeyId})`,
    ...rangeInserts(jobId, records.chunks),
  ];
}

function rangeInserts(jobId: string, chunks: ChunkRange[]): SQL[] {
  const statements: SQL[] = [];
  for (let base = 0; base < chunks.length; base += RANGES_PER_STATEMENT) {
    const rows = chunks
      .slice(base, base + RANGES_PER_STATEMENT)
      .map((r) => [r.first, r.count, r.offset, r.length]);
    statements.push(sql`INSERT INTO job_chunk_ranges
        (job_id, chunk_index, first_record, record_count, byte_offset, byte_length)
      SELECT ${jobId}, j.key + ${base}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]')
      FROM json_each(${JSON.stringify(rows)}) AS j`);
  }
  return statements;
}

async function discardJob(env: Bindings, d1: D1Database, jobId: string) {
  await Promise.allSettled([
    rawBatch(d1, [
      sql`DELETE FROM job_chunk_ranges WHERE job_id = ${jobId}`,
      sql`DELETE FROM jobs WHERE id = ${jobId}`,
    ]),
    env.PAYLOADS.delete(payloadKey(jobId)),
  ]);
}
