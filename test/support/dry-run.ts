import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { BulkJobType, JobMessage } from "../../src/async/bulk/types.ts";
import { api } from "./api.ts";
import { deliverAll, logOutcomes, stageJob } from "./jobs.ts";
import { recordingQueue } from "./queues.ts";
import { unique } from "./unique.ts";

/**
 * Every row of every table but the jobs' own (a dry run writes its job, logs and ledger only, and
 * so the jobs' kept count in row_counts) and the API keys (the test's own requests note when a key
 * was last used).
 */
async function snapshot() {
  const { results: tables } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table'
       AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'job%'
       AND name != 'api_keys' ORDER BY name`,
  ).all<{ name: string }>();
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const jobsOwn = name === "row_counts" ? ` WHERE table_name NOT LIKE 'job%'` : "";
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"${jobsOwn}`).all();
    rows[name] = results.map((r) => JSON.stringify(r)).sort();
  }
  return rows;
}

/**
 * Stages a job (chunks of `chunkSize` records) and delivers its messages one after the other until
 * it is final; returns the webhook messages its end enqueued.
 */
async function runJob(
  type: BulkJobType,
  records: unknown[],
  params: Record<string, unknown>,
  chunkSize: number,
) {
  const jobs = recordingQueue<JobMessage>();
  const webhooks = recordingQueue();
  const testEnv = { ...env, JOBS_QUEUE: jobs.queue, WEBHOOKS_QUEUE: webhooks.queue };
  const jobId = await stageJob(type, records, params, chunkSize);
  await deliverAll(testEnv, jobs, jobId);
  const job = (await api(`/api/v1/jobs/${jobId}?fields=status,summary,dry_run`)).json;
  const logs = await logOutcomes(jobId);
  return { job, logs, webhooks: webhooks.batched.length };
}

/**
 * Runs `records` as a dry run and then for real, from the same database: the dry run changes no
 * table, and its status, summary and log entries are the real run's; only the real run notifies.
 * Returns the real run.
 */
export async function dryThenReal(
  type: BulkJobType,
  records: unknown[],
  params: { options?: Record<string, unknown>; [key: string]: unknown },
  chunkSize = 2,
) {
  const before = await snapshot();
  const dryParams = { ...params, options: { ...params.options, dry_run: true } };
  const dry = await runJob(type, records, dryParams, chunkSize);
  expect(await snapshot()).toEqual(before);
  const real = await runJob(type, records, params, chunkSize);
  expect(await snapshot()).not.toEqual(before);
  expect(dry.job.dry_run).toBe(true);
  expect(real.job.dry_run).toBe(false);
  expect({ status: dry.job.status, summary: dry.job.summary }).toEqual({
    status: real.job.status,
    summary: real.job.summary,
  });
  expect(dry.logs).toEqual(real.logs);
  expect(dry.webhooks).toBe(0);
  expect(real.webhooks).toBe(1);
  return real;
}

/** A webhook subscription to every final status, so a real run's end enqueues a delivery. */
export async function subscribeToJobEnds() {
  await env.DB.prepare("INSERT INTO webhooks (url, events, secret) VALUES (?, ?, ?)")
    .bind(
      "https://hooks.example.test/dry-run",
      JSON.stringify(["job.done", "job.done_with_errors", "job.failed"]),
      unique("whsec"),
    )
    .run();
}

/**
 * A products bulk record creating a product (named after its internal id unless `name` says
 * otherwise) with one new variant priced in market_es; `variant` adds to or overrides the variant.
 */
export const newProductRecord = (
  internalId: string,
  variant: Record<string, unknown> = {},
  name = `Producto ${internalId}`,
) => ({
  internal_id: internalId,
  translations: { "es-ES": { name } },
  variants: [
    {
      sku: unique("S"),
      prices: { market_es: { list_price: { amount: "19.90", currency: "EUR" } } },
      ...variant,
    },
  ],
});
