import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_REDRIVES, stallSeconds, sweepStalledJobs } from "../../src/async/bulk/liveness.ts";
import { onJobFinalized } from "../../src/resources/webhooks/job-finalized.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { capturingEnv, jobLogs, quietEnv, stageJob, waitForJob } from "../support/jobs.ts";
import { deliverToQueue, runScheduled } from "../support/queues.ts";

const STALL_MS = stallSeconds(env) * 1000;

async function jobRow(jobId: string) {
  return env.DB.prepare("SELECT status, redrives, processed_records, heartbeat_at FROM jobs WHERE id = ?")
    .bind(jobId)
    .first<{ status: string; redrives: number; processed_records: number; heartbeat_at: string | null }>();
}

async function stockOf(variantId: number) {
  return (
    await env.DB.prepare("SELECT warehouse_stock FROM variants WHERE id = ?")
      .bind(variantId)
      .first<{ warehouse_stock: number }>()
  )?.warehouse_stock;
}

/** A variants job of `n` records in chunks of 2, with chunk 0 applied and the message for chunk 1 lost. */
async function interruptedJob(n = 5) {
  const p = await createProduct({ variants: Array.from({ length: n }, () => ({})) });
  const jobId = await stageJob(
    "variants_bulk_update",
    p.variantIds.map((id, i) => ({ id, warehouse_stock: 300 + i })),
    { options: { match_by: "id" } },
    2,
  );
  const { testEnv, sent } = capturingEnv();
  await deliverToQueue("storefront-jobs", { jobId, chunk: 0 }, testEnv);
  expect(sent).toEqual([{ jobId, chunk: 1 }]); // …and this message is lost with the crash
  return { jobId, variantIds: p.variantIds };
}

describe("job liveness (minutely sweep)", () => {
  it("leaves a job alone while it shows signs of life within the stall time", async () => {
    const { jobId } = await interruptedJob();
    const { testEnv, sent } = capturingEnv();
    await sweepStalledJobs(testEnv, Date.now() + STALL_MS - 60_000, onJobFinalized);
    expect(sent.filter((m) => m.jobId === jobId)).toEqual([]);
    expect((await jobRow(jobId))?.redrives).toBe(0);
  });

  it("re-drives a stalled job from its first chunk not yet in the ledger", async () => {
    const { jobId } = await interruptedJob();
    const { testEnv, sent } = capturingEnv();
    const result = await sweepStalledJobs(testEnv, Date.now() + STALL_MS + 1000, onJobFinalized);
    expect(result.redriven).toContain(jobId);
    expect(sent.filter((m) => m.jobId === jobId)).toEqual([{ jobId, chunk: 1 }]);
    expect(await jobRow(jobId)).toMatchObject({ status: "running", redrives: 1 });
  });

  it("re-drives once when two sweeps overlap", async () => {
    const { jobId } = await interruptedJob();
    const { testEnv, sent } = capturingEnv();
    const now = Date.now() + STALL_MS + 1000;
    await Promise.all([
      sweepStalledJobs(testEnv, now, onJobFinalized),
      sweepStalledJobs(testEnv, now, onJobFinalized),
    ]);
    expect(sent.filter((m) => m.jobId === jobId)).toEqual([{ jobId, chunk: 1 }]);
  });

  it("an interrupted job finishes by itself with every record applied exactly once", async () => {
    const { jobId, variantIds } = await interruptedJob(5);
    // Something changes record 0's variant after chunk 0 committed: a second application would undo it.
    await env.DB.prepare("UPDATE variants SET warehouse_stock = 7 WHERE id = ?")
      .bind(variantIds[0] as number)
      .run();
    await sweepStalledJobs(env, Date.now() + STALL_MS + 1000, onJobFinalized); // the real queue runs the rest
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ total_records: 5, processed_records: 5, succeeded_records: 5 });
    expect(await Promise.all(variantIds.map((id) => stockOf(id)))).toEqual([7, 301, 302, 303, 304]);
    expect((await jobLogs(jobId)).filter((l) => l.severity === "INFO")).toHaveLength(1);
  });

  it("a job whose first message was lost is started by a re-drive", async () => {
    const p = await createProduct();
    const jobId = await stageJob("variants_bulk_update", [{ id: p.variantIds[0], warehouse_stock: 61 }], {
      options: { match_by: "id" },
    });
    await sweepStalledJobs(env, Date.now() + STALL_MS + 1000, onJobFinalized);
    expect((await waitForJob(jobId)).status).toBe("done");
    expect(await stockOf(p.variantIds[0] as number)).toBe(61);
  });

  it("a job whose chunks are all recorded but which was never finalized is finalized", async () => {
    const p = await createProduct();
    const jobId = await stageJob("variants_bulk_update", [{ id: p.variantIds[0], warehouse_stock: 62 }], {
      options: { match_by: "id" },
    });
    // The chunk committed, then the Worker died before finalizing.
    const quiet = quietEnv();
    await env.DB.prepare("UPDATE jobs SET chunk_count = 2 WHERE id = ?").bind(jobId).run();
    await deliverToQueue("storefront-jobs", { jobId, chunk: 0 }, quiet);
    await env.DB.prepare("UPDATE jobs SET chunk_count = 1 WHERE id = ?").bind(jobId).run();
    expect((await jobRow(jobId))?.status).toBe("running");
    await sweepStalledJobs(env, Date.now() + STALL_MS + 1000, onJobFinalized);
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ processed_records: 1, succeeded_records: 1 });
  });

  it(`ends a job final after ${MAX_REDRIVES} re-drives without progress, its unprocessed records failed with one OTHER entry`, async () => {
    const { jobId } = await interruptedJob(5);
    const { testEnv, sent } = capturingEnv();
    let now = Date.now();
    for (let i = 0; i < MAX_REDRIVES; i++) {
      now += STALL_MS + 1000;
      await sweepStalledJobs(testEnv, now, onJobFinalized); // each re-drive's message is lost too
    }
    expect(sent.filter((m) => m.jobId === jobId)).toHaveLength(MAX_REDRIVES);
    expect((await jobRow(jobId))?.status).toBe("running");
    now += STALL_MS + 1000;
    const result = await sweepStalledJobs(testEnv, now, onJobFinalized);
    expect(result.given_up).toContain(jobId);
    const job = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({
      total_records: 5,
      processed_records: 5,
      succeeded_records: 2,
      failed_records: 3,
      log_error_count: 1,
    });
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors).toEqual([
      expect.objectContaining({
        code: "OTHER",
        identifiers: null,
        message: expect.stringContaining("no progress"),
      }),
    ]);
    expect(errors[0]?.message).toContain("3 of 5 records were not processed");
  });

  it("progress resets the re-drive count", async () => {
    const { jobId } = await interruptedJob(5);
    const { testEnv } = capturingEnv();
    await sweepStalledJobs(testEnv, Date.now() + STALL_MS + 1000, onJobFinalized);
    expect((await jobRow(jobId))?.redrives).toBe(1);
    await deliverToQueue("storefront-jobs", { jobId, chunk: 1 }, testEnv);
    expect(await jobRow(jobId)).toMatchObject({ redrives: 0, processed_records: 4 });
  });

  it("runs every minute from the cron trigger", async () => {
    const { jobId } = await interruptedJob();
    await runScheduled("* * * * *", Date.now() + STALL_MS + 1000);
    expect((await waitForJob(jobId)).status).toBe("done");
  });
});
