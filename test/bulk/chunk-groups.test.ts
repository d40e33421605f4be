import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  CHUNK_MAX_RECORDS,
  type ChunkRange,
  chunkGroup,
  GROUP_MAX_BYTES,
  GROUP_MAX_CHUNKS,
  GROUP_MAX_RECORDS,
} from "../../src/async/bulk/chunking.ts";
import { processJobMessage } from "../../src/async/bulk/consumer.ts";
import type { JobMessage } from "../../src/async/bulk/types.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { deliverAll, logOutcomes, stageJob } from "../support/jobs.ts";
import { recordingQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";

/**
 * A message applies up to GROUP_MAX_RECORDS records of consecutive full chunks with one plan and one
 * batch (src/async/bulk/apply-group.ts). Each test runs the same payload grouped (chunks of
 * CHUNK_MAX_RECORDS) and as a chain of one message per chunk (chunks of one record fewer, never
 * grouped): the outcome must be the chain's.
 */

const MISSING_ID = 2_000_000_000;
/** One record fewer than a full chunk: these chunks never group, one message each. */
const CHAIN = CHUNK_MAX_RECORDS - 1;

const eur = (amount: string) => ({ amount, currency: "EUR" });

/** Stages a variants job and delivers its messages one after the other until it is final. */
async function run(records: unknown[], chunkSize: number, options: Record<string, unknown> = {}) {
  const jobs = recordingQueue<JobMessage>();
  const testEnv = { ...env, JOBS_QUEUE: jobs.queue };
  const jobId = await stageJob(
    "variants_bulk_update",
    records,
    { options: { match_by: "id", ...options } },
    chunkSize,
  );
  const messages = await deliverAll(testEnv, jobs, jobId);
  const job = (await api(`/api/v1/jobs/${jobId}?fields=status,summary`)).json;
  const logs = await logOutcomes(jobId);
  const ledger = (
    await env.DB.prepare(
      "SELECT chunk_index, part FROM job_chunks WHERE job_id = ? ORDER BY chunk_index, part",
    )
      .bind(jobId)
      .all<{ chunk_index: number; part: number }>()
  ).results;
  return { jobId, job, logs, messages, ledger };
}

async function variantState(ids: number[]) {
  const { results } = await env.DB.prepare(
    `SELECT v.id, v.warehouse_stock, v.internal_id, p.list_price FROM variants v
     LEFT JOIN variant_prices p ON p.variant_id = v.id AND p.market = 'market_es'
     WHERE v.id IN (SELECT value FROM json_each(?)) ORDER BY v.id`,
  )
    .bind(JSON.stringify(ids))
    .all();
  return results;
}

/** Back to the state the factory created them in (internal ids `V-<id>`, no market_es price). */
async function resetVariants(ids: number[]) {
  await env.DB.prepare(
    "UPDATE variants SET warehouse_stock = 0, internal_id = 'V-' || id WHERE id IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(ids))
    .run();
  await env.DB.prepare(
    "DELETE FROM variant_prices WHERE market = 'market_es' AND variant_id IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(ids))
    .run();
}

/**
 * `count` records cycling over `ids` (each variant updated many times, in every chunk), each
 * setting the stock and the market_es list price to its own index; every 97th names no variant.
 */
const cycling = (ids: number[], count: number) =>
  Array.from({ length: count }, (_, i) =>
    i % 97 === 50
      ? { id: MISSING_ID, warehouse_stock: i }
      : {
          id: ids[i % ids.length],
          warehouse_stock: i,
          prices: { market_es: { list_price: eur(`${i}.00`) } },
        },
  );

describe("chunk groups: a message applies several full chunks, with the chain's outcome", () => {
  it("the last record in payload order wins and the summary and log entries are the chain's", async () => {
    const p = await createProduct({ variants: [{}, {}, {}, {}, {}, {}, {}] });
    const ids = p.variantIds;
    const records = cycling(ids, GROUP_MAX_RECORDS + 50);
    const before = await variantState(ids);

    const grouped = await run(records, CHUNK_MAX_RECORDS);
    // Every full chunk of a group in the first message, the last (50 records) in the second.
    expect(grouped.messages).toBe(2);
    expect(grouped.ledger).toEqual(
      Array.from({ length: GROUP_MAX_CHUNKS + 1 }, (_, c) => ({ chunk_index: c, part: -1 })),
    );
    const afterGrouped = await variantState(ids);
    // Each variant ends with the values of the last record naming it.
    const lastOf = (id: number) =>
      records.map((r, i) => (r.id === id ? i : -1)).reduce((a, b) => Math.max(a, b));
    expect(afterGrouped).toEqual(
      before.map((row) => ({
        ...row,
        warehouse_stock: lastOf(row.id as number),
        list_price: `${lastOf(row.id as number)}.00`,
      })),
    );
    const missing = records.filter((r) => r.id === MISSING_ID).length;
    expect(grouped.job.status).toBe("done_with_errors");
    expect(grouped.job.summary).toMatchObject({
      total_records: records.length,
      processed_records: records.length,
      succeeded_records: records.length - missing,
      failed_records: missing,
      log_error_count: missing,
      log_info_count: 1,
    });

    await resetVariants(ids);
    await env.DB.prepare(
      "UPDATE variants SET internal_id = 'V-' || id WHERE id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(ids))
      .run();
    const chain = await run(records, CHAIN);
    expect(chain.messages).toBe(Math.ceil(records.length / CHAIN));
    expect(await variantState(ids)).toEqual(afterGrouped);
    expect(chain.job).toEqual({ ...grouped.job, id: chain.jobId });
    expect(chain.logs).toEqual(grouped.logs);
  });

  it("a group delivered twice applies once and moves the job on once", async () => {
    const p = await createProduct({ variants: [{}, {}, {}] });
    const ids = p.variantIds;
    const records = cycling(ids, GROUP_MAX_RECORDS + 10);
    const jobId = await stageJob("variants_bulk_update", records, { options: { match_by: "id" } });
    const jobs = recordingQueue<JobMessage>();
    const testEnv = { ...env, JOBS_QUEUE: jobs.queue };
    await processJobMessage(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    const applied = await variantState(ids);
    const summary = (await api(`/api/v1/jobs/${jobId}`)).json.summary;
    expect(summary.processed_records).toBe(GROUP_MAX_RECORDS);
    await resetVariants(ids);
    await processJobMessage(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    expect(await variantState(ids)).not.toEqual(applied); // nothing applied again
    expect((await api(`/api/v1/jobs/${jobId}`)).json.summary).toEqual(summary);
    // The next message names the chunk after the group, once.
    expect(jobs.sent.map((m) => m.chunk)).toEqual([GROUP_MAX_CHUNKS]);
  });

  it("the redelivered message of a group that ended the job finalizes it if the first delivery could not", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const records = cycling(p.variantIds, GROUP_MAX_RECORDS);
    const jobId = await stageJob("variants_bulk_update", records, { options: { match_by: "id" } });
    // As if the group had committed and the Worker died before finalizing: ledger and counters only.
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO job_chunks (job_id, chunk_index, part) SELECT ?, value, -1 FROM json_each(?)",
      ).bind(jobId, JSON.stringify(Array.from({ length: GROUP_MAX_CHUNKS }, (_, c) => c))),
      env.DB.prepare(
        "UPDATE jobs SET status = 'running', processed_records = total_records, succeeded_records = total_records WHERE id = ?",
      ).bind(jobId),
    ]);
    const jobs = recordingQueue<JobMessage>();
    await processJobMessage({ ...env, JOBS_QUEUE: jobs.queue }, { jobId, chunk: 0 }, JOB_PIPELINE);
    expect((await api(`/api/v1/jobs/${jobId}`)).json.status).toBe("done");
    expect(jobs.sent).toEqual([]);
  });

  it("a group whose batch fails applies its chunks one at a time: only the conflicting record fails, as in the chain", async () => {
    const p = await createProduct({ variants: [{}, {}, {}, {}, {}] });
    const ids = p.variantIds;
    const withConflict = (internalId: string) => {
      const records: Record<string, unknown>[] = cycling(ids, GROUP_MAX_RECORDS);
      // Two variants given the same internal id, in the fourth chunk of the group.
      records[650] = { id: ids[0], internal_id: internalId };
      records[700] = { id: ids[1], internal_id: internalId };
      return records;
    };
    const records = withConflict(unique("GRP"));
    const grouped = await run(records, CHUNK_MAX_RECORDS);
    const afterGrouped = await variantState(ids);
    // The records naming no variant, and the second of the conflicting pair.
    const failed = records.filter((r) => r.id === MISSING_ID).length + 1;
    expect(grouped.job.summary).toMatchObject({ failed_records: failed });
    expect(grouped.logs.filter((l) => l.code === "INVALID_FIELD_VALUE")).toEqual([
      expect.objectContaining({ identifiers: { variant: { id: ids[1] } } }),
    ]);
    await resetVariants(ids);
    const chain = await run(withConflict(unique("GRP")), CHAIN);
    expect(chain.job).toEqual({ ...grouped.job, id: chain.jobId });
    expect(chain.logs).toEqual(grouped.logs);
    // The internal id the first of the two records set differs by run; which variant holds one does not.
    const internal = (rows: Record<string, unknown>[]) =>
      rows.map((r) => ({ ...r, internal_id: String(r.internal_id).startsWith("GRP") }));
    expect(internal(await variantState(ids))).toEqual(internal(afterGrouped));
  });

  it("a dry run of grouped chunks writes the real run's summary and log entries and changes nothing", async () => {
    const p = await createProduct({ variants: [{}, {}, {}] });
    const ids = p.variantIds;
    const records = cycling(ids, GROUP_MAX_RECORDS + 50);
    const before = await variantState(ids);
    const dry = await run(records, CHUNK_MAX_RECORDS, { dry_run: true });
    expect(dry.messages).toBe(2);
    expect(await variantState(ids)).toEqual(before);
    const real = await run(records, CHUNK_MAX_RECORDS);
    expect(await variantState(ids)).not.toEqual(before);
    expect(dry.job).toEqual({ ...real.job, id: dry.jobId });
    expect(dry.logs).toEqual(real.logs);
  });

  it("a group spans at most GROUP_MAX_BYTES of JSON: full chunks of large records travel one per message", () => {
    // Consecutive full chunks of `bytes` each, back to back (a comma between them).
    const ranges =
      (bytes: number) =>
      (chunk: number): ChunkRange | undefined =>
        chunk < GROUP_MAX_CHUNKS * 2
          ? {
              first: chunk * CHUNK_MAX_RECORDS,
              count: CHUNK_MAX_RECORDS,
              offset: chunk * (bytes + 1),
              length: bytes,
            }
          : undefined;
    const small = Math.floor(GROUP_MAX_BYTES / GROUP_MAX_CHUNKS) - 1;
    expect(chunkGroup(0, ranges(small))).toHaveLength(GROUP_MAX_CHUNKS);
    const half = Math.floor(GROUP_MAX_BYTES / 2);
    expect(chunkGroup(0, ranges(half))).toHaveLength(1);
    const third = Math.floor(GROUP_MAX_BYTES / 3) - 1;
    expect(chunkGroup(0, ranges(third))).toHaveLength(3);
  });
});
