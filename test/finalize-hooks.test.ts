import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chunkKey } from "../src/jobs/chunking.ts";
import { processJobMessage } from "../src/jobs/consumer.ts";
import { onJobFinalized } from "../src/jobs/finalize.ts";
import type { JobRow } from "../src/jobs/types.ts";
import { messageIdFor } from "../src/webhooks/enqueue.ts";
import { createProduct } from "./factories.ts";

describe("finalized hooks", () => {
  it("run again when the last message is retried after a hook failed (at least once)", async () => {
    const calls: string[] = [];
    let failNext = true;
    onJobFinalized(async (_env, job: JobRow) => {
      calls.push(job.status);
      if (failNext) {
        failNext = false;
        throw new Error("queue unavailable");
      }
    });
    const { variantIds } = await createProduct();
    const jobId = crypto.randomUUID();
    await env.PAYLOADS.put(
      chunkKey(jobId, 0),
      JSON.stringify([{ index: 0, data: { id: variantIds[0], warehouse_stock: 9 } }]),
    );
    await env.DB.prepare(
      `INSERT INTO jobs (id, type, status, params, payload_key, chunk_count, total_records)
       VALUES (?, 'variants_bulk_update', 'pending', ?, ?, 1, 1)`,
    )
      .bind(jobId, JSON.stringify({ options: { match_by: "id" }, chunkSizes: [1] }), `jobs/${jobId}/`)
      .run();
    const quietQueue = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const testEnv = { ...env, JOBS_QUEUE: quietQueue, WEBHOOKS_QUEUE: quietQueue };

    await expect(processJobMessage(testEnv, { jobId, chunk: 0 })).rejects.toThrow("queue unavailable");
    await processJobMessage(testEnv, { jobId, chunk: 0 });

    expect(calls).toEqual(["done", "done"]);
    const summaries = await env.DB.prepare(
      "SELECT count(*) AS n FROM job_logs WHERE job_id = ? AND severity = 'INFO'",
    )
      .bind(jobId)
      .first<{ n: number }>();
    expect(summaries?.n).toBe(1);
  });

  it("give a job event one stable webhook message id per subscription", () => {
    const job = "6b1f2c3d-0000-4000-8000-000000000001";
    expect(messageIdFor(job, 7)).toBe(messageIdFor(job, 7));
    expect(messageIdFor(job, 7)).not.toBe(messageIdFor(job, 8));
  });
});
