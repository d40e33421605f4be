import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createProduct } from "../support/factories/catalog.ts";
import { stageJob, waitForJob } from "../support/jobs.ts";
import { deliverToQueue } from "../support/queues.ts";

describe("queue routing by name suffix (every environment's queues)", () => {
  it("a staging jobs queue runs job chunks", async () => {
    const p = await createProduct();
    const jobId = await stageJob("variants_bulk_update", [{ id: p.variantIds[0], warehouse_stock: 8 }], {
      options: { match_by: "id" },
    });
    const result = await deliverToQueue("storefront-staging-jobs", { jobId, chunk: 0 });
    expect(result.explicitAcks).toHaveLength(1);
    expect((await waitForJob(jobId)).status).toBe("done");
  });

  it("a staging jobs dead-letter queue fails the chunk's records", async () => {
    const p = await createProduct();
    const jobId = await stageJob("variants_bulk_update", [{ id: p.variantIds[0], warehouse_stock: 9 }], {
      options: { match_by: "id" },
    });
    await deliverToQueue("storefront-staging-jobs-dlq", { jobId, chunk: 0 });
    expect((await waitForJob(jobId)).status).toBe("failed");
  });

  it("staging webhooks queues reach the delivery handlers", async () => {
    const message = {
      webhookId: 987654,
      jobId: crypto.randomUUID(),
      eventType: "job.done",
      messageId: "msg_x",
      attempt: 1,
    };
    // A subscription that does not exist is skipped and acknowledged (the jobs handler would throw).
    expect((await deliverToQueue("storefront-staging-webhooks", message)).explicitAcks).toHaveLength(1);
    expect((await deliverToQueue("storefront-staging-webhooks-dlq", message)).retryMessages).toHaveLength(0);
  });

  it("a message whose body does not parse is logged and acknowledged, never handled", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
      errors.push(String(line));
    });
    try {
      const jobs = await deliverToQueue("storefront-jobs", { jobId: 42, chunk: -1 });
      expect(jobs.explicitAcks).toHaveLength(1);
      expect(jobs.retryMessages).toHaveLength(0);
      const webhooks = await deliverToQueue("storefront-staging-webhooks-dlq", { webhookId: "1" });
      expect(webhooks.explicitAcks).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    const logged = errors.map((line) => JSON.parse(line) as { event: string; queue: string });
    expect(logged.map((l) => [l.event, l.queue])).toEqual([
      ["queue.malformed_message", "storefront-jobs"],
      ["queue.malformed_message", "storefront-staging-webhooks-dlq"],
    ]);
  });

  it("a batch from a queue of unknown kind is retried, never dropped", async () => {
    const result = await deliverToQueue("storefront-unknown", { jobId: "x", chunk: 0 }, env);
    expect(result.retryBatch.retry).toBe(true);
  });
});
