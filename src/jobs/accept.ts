import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { countTrip } from "../db/client.ts";
import { jobs } from "../db/schema/index.ts";
import type { AppEnv } from "../env.ts";
import { chunkKey, jobPayloadPrefix, splitIntoChunks } from "./chunking.ts";
import type { JobMessage, JobType } from "./types.ts";

/**
 * The shared acceptance path of every bulk route, after the request passed its top-level checks:
 * the payload is split into chunk objects in R2, the job row is inserted as `pending`, the first
 * chunk is enqueued, and the answer is 202 `[{job_id, status: "pending"}]`.
 */
export async function acceptBulkJob(
  c: Context<AppEnv>,
  type: JobType,
  records: unknown[],
  params: Record<string, unknown>,
) {
  const jobId = crypto.randomUUID();
  const chunks = splitIntoChunks(records);
  await Promise.all(
    chunks.map((chunk, i) =>
      c.env.PAYLOADS.put(chunkKey(jobId, i), JSON.stringify(chunk), {
        httpMetadata: { contentType: "application/json" },
      }),
    ),
  );
  countTrip(c);
  await c
    .get("db")
    .insert(jobs)
    .values({
      id: jobId,
      type,
      status: "pending",
      params: { ...params, chunkSizes: chunks.map((ch) => ch.length) },
      payloadKey: jobPayloadPrefix(jobId),
      chunkCount: chunks.length,
      totalRecords: records.length,
      apiKeyId: c.get("apiKey").id,
    });
  const message: JobMessage = { jobId, chunk: 0 };
  try {
    await c.env.JOBS_QUEUE.send(message, { contentType: "json" });
  } catch (err) {
    // Never leave a job `pending` that nothing will run: take it back and let the client retry.
    countTrip(c);
    await c.get("db").delete(jobs).where(eq(jobs.id, jobId));
    await c.env.PAYLOADS.delete(chunks.map((_, i) => chunkKey(jobId, i)));
    throw err;
  }
  return c.json([{ job_id: jobId, status: "pending" as const }], 202, {
    Location: `${new URL(c.req.url).origin}/api/v1/jobs/${jobId}`,
  });
}
