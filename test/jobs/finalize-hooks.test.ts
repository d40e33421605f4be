import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { processJobMessage } from "../../src/async/bulk/consumer.ts";
import type { JobRow } from "../../src/async/bulk/types.ts";
import { messageIdFor } from "../../src/async/deliveries/enqueue.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { stageJob } from "../support/jobs.ts";
import { recordingQueue } from "../support/queues.ts";

describe("finalized hooks", () => {
  it("run again when the last message is retried after a hook failed (at least once)", async () => {
    const calls: string[] = [];
    let failNext = true;
    const pipeline = {
      ...JOB_PIPELINE,
      onFinalized: async (_env: unknown, job: JobRow) => {
        calls.push(job.status);
        if (failNext) {
          failNext = false;
          throw new Error("queue unavailable");
        }
      },
    };
    const { variantIds } = await createProduct();
    const jobId = await stageJob("variants_bulk_update", [{ id: variantIds[0], warehouse_stock: 9 }], {
      options: { match_by: "id" },
    });
    const quietQueue = recordingQueue().queue;
    const testEnv = { ...env, JOBS_QUEUE: quietQueue, WEBHOOKS_QUEUE: quietQueue };

    await expect(processJobMessage(testEnv, { jobId, chunk: 0 }, pipeline)).rejects.toThrow(
      "queue unavailable",
    );
    await processJobMessage(testEnv, { jobId, chunk: 0 }, pipeline);

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
