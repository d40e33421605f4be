import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REPLAY_RECORDS_PER_INVOCATION } from "../../src/async/bulk/apply-chunk.ts";
import { payloadKey } from "../../src/async/bulk/chunking.ts";
import { processDeadLetter } from "../../src/async/bulk/consumer.ts";
import { finalizeJob } from "../../src/async/bulk/finalize.ts";
import { isJobClosed, isLedgerConflict, ledgerInsert, WHOLE_CHUNK } from "../../src/async/bulk/ledger.ts";
import type { BulkJobType, JobMessage } from "../../src/async/bulk/types.ts";
import { createDb } from "../../src/db/client.ts";
import { rawBatch } from "../../src/db/raw.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { onJobFinalized } from "../../src/resources/webhooks/job-finalized.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { capturingEnv, type JobView, jobLogs, stageJob, submitBulk, waitForJob } from "../support/jobs.ts";
import { deliverToQueue } from "../support/queues.ts";
import { unique } from "../support/unique.ts";

/** Delivers one chunk message to the worker's queue handler, as the Queues runtime would. */
const deliver = (testEnv: typeof env, message: JobMessage, queue = "storefront-jobs") =>
  deliverToQueue(queue, message, testEnv);

async function jobOf(jobId: string): Promise<JobView> {
  const res = await api(`/api/v1/jobs/${jobId}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

async function stockOf(variantId: number) {
  const row = await env.DB.prepare("SELECT warehouse_stock, internal_id FROM variants WHERE id = ?")
    .bind(variantId)
    .first<{ warehouse_stock: number; internal_id: string | null }>();
  return row?.warehouse_stock;
}

const variantsJob = (records: unknown[], chunkSize = 200) =>
  stageJob("variants_bulk_update", records, { options: { match_by: "id" } }, chunkSize);

describe("queue consumer: at most once per chunk", () => {
  it("a chunk message delivered twice applies its effects and counters once and enqueues the next chunk once", async () => {
    const p = await createProduct({ variants: [{}, {}, {}, {}] });
    const ids = p.variantIds;
    const jobId = await variantsJob(
      ids.map((id, i) => ({ id, warehouse_stock: 100 + i })),
      2,
    );
    const { testEnv, sent } = capturingEnv();
    const first = await deliver(testEnv, { jobId, chunk: 0 });
    expect(first.explicitAcks).toHaveLength(1);
    // Something else changes the first variant between the two deliveries.
    await env.DB.prepare("UPDATE variants SET warehouse_stock = 1 WHERE id = ?")
      .bind(ids[0] as number)
      .run();
    const second = await deliver(testEnv, { jobId, chunk: 0 });
    expect(second.explicitAcks).toHaveLength(1);
    expect(await stockOf(ids[0] as number)).toBe(1); // not applied again
    let job = await jobOf(jobId);
    expect(job.status).toBe("running");
    expect(job.summary).toMatchObject({ processed_records: 2, succeeded_records: 2 });
    // Only the delivery that applied the chunk moves the job on: no second chain of messages.
    expect(sent).toEqual([{ jobId, chunk: 1 }]);

    await deliver(testEnv, { jobId, chunk: 1 });
    await deliver(testEnv, { jobId, chunk: 1 });
    job = await jobOf(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({
      total_records: 4,
      processed_records: 4,
      succeeded_records: 4,
      failed_records: 0,
      log_info_count: 1,
    });
    expect(await jobLogs(jobId)).toHaveLength(1);
    expect(await stockOf(ids[3] as number)).toBe(103);
  });

  it("a chunk delivered again after the job is final changes nothing", async () => {
    const p = await createProduct();
    const jobId = await variantsJob([{ id: p.variantIds[0], warehouse_stock: 5 }]);
    const { testEnv } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    const done = await jobOf(jobId);
    await deliver(testEnv, { jobId, chunk: 0 });
    expect(await jobOf(jobId)).toEqual(done);
  });

  it("processed_records grows chunk by chunk while the job runs", async () => {
    const p = await createProduct({ variants: [{}, {}, {}, {}, {}] });
    const jobId = await variantsJob(
      p.variantIds.map((id) => ({ id, supplier_stock: 1 })),
      2,
    );
    const { testEnv } = capturingEnv();
    const seen: [string, number | undefined][] = [];
    for (const chunk of [0, 1, 2]) {
      await deliver(testEnv, { jobId, chunk });
      const job = await jobOf(jobId);
      seen.push([job.status, job.summary.processed_records]);
    }
    expect(seen).toEqual([
      ["running", 2],
      ["running", 4],
      ["done", 5],
    ]);
  });
});

/** The D1 binding, counting round trips: each `batch` and each single statement run is one. */
function countingD1(d1: D1Database) {
  const counter = { trips: 0 };
  const count = (s: D1PreparedStatement): D1PreparedStatement => {
    const bind = s.bind.bind(s);
    const target = s as unknown as Record<string, unknown>;
    for (const method of ["all", "first", "run", "raw"] as const) {
      const run = (s[method] as (...args: unknown[]) => Promise<unknown>).bind(s);
      target[method] = (...args: unknown[]) => {
        counter.trips++;
        return run(...args);
      };
    }
    s.bind = (...values: unknown[]) => count(bind(...values));
    return s;
  };
  const db = {
    prepare: (query: string) => count(d1.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      counter.trips++;
      return d1.batch(statements);
    },
  } as unknown as D1Database;
  return { db, counter };
}

describe("queue consumer: D1 round trips", () => {
  it("a variants chunk costs 4: open (job, ledger), match with markets, change checks, apply; a redelivery 1", async () => {
    const p = await createProduct({ variants: [{}, {}, {}] });
    const jobId = await variantsJob(
      p.variantIds.map((id, i) => ({
        id,
        warehouse_stock: 50 + i,
        prices: { market_es: { offer_price: { amount: "1.00", currency: "EUR" } } },
      })),
      2,
    );
    const { testEnv, sent } = capturingEnv();
    const { db, counter } = countingD1(env.DB);
    await deliver({ ...testEnv, DB: db }, { jobId, chunk: 0 });
    expect(counter.trips).toBe(4);
    expect(sent).toEqual([{ jobId, chunk: 1 }]);
    expect(await stockOf(p.variantIds[1] as number)).toBe(51);
    // The offer alone is valid because the match read that market_es already has a price.
    expect((await jobOf(jobId)).summary).toMatchObject({ processed_records: 2, succeeded_records: 2 });
    counter.trips = 0;
    await deliver({ ...testEnv, DB: db }, { jobId, chunk: 0 });
    expect(counter.trips).toBe(1);
  });
});

describe("queue consumer: replay one record per batch", () => {
  it("a record whose effects fail on a constraint does not sink its neighbours", async () => {
    const taken = unique("TAKEN");
    await createProduct({ variants: [{ internalId: taken }] });
    const p = await createProduct({ variants: [{}, {}, {}] });
    const [a, b, c] = p.variantIds as [number, number, number];
    const jobId = await variantsJob([
      { id: a, warehouse_stock: 11 },
      { id: b, internal_id: taken, warehouse_stock: 12 },
      { id: c, warehouse_stock: 13 },
    ]);
    const { testEnv } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    const job = await jobOf(jobId);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({ processed_records: 3, succeeded_records: 2, failed_records: 1 });
    expect([await stockOf(a), await stockOf(b), await stockOf(c)]).toEqual([11, 5, 13]);
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "INVALID_FIELD_VALUE",
        identifiers: { variant: { id: b } },
        affected_fields: ["internal_id"],
      }),
    ]);
  });

  it("a consumer that died mid-replay resumes after the records it committed", async () => {
    const p = await createProduct({ variants: [{}, {}, {}] });
    const [a, b, c] = p.variantIds as [number, number, number];
    const jobId = await variantsJob([
      { id: a, warehouse_stock: 21 },
      { id: b, warehouse_stock: 22 },
      { id: c, warehouse_stock: 23 },
    ]);
    // The previous attempt committed record 1 on its own (ledger part + counters), then died.
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET status = 'running' WHERE id = ?").bind(jobId),
      env.DB.prepare("INSERT INTO job_chunks (job_id, chunk_index, part) VALUES (?, 0, 1)").bind(jobId),
      env.DB.prepare("UPDATE jobs SET processed_records = 1, succeeded_records = 1 WHERE id = ?").bind(jobId),
    ]);
    const { testEnv } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    const job = await jobOf(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ processed_records: 3, succeeded_records: 3, failed_records: 0 });
    // Record 1 counted as applied by the earlier attempt, so it is not applied a second time.
    expect([await stockOf(a), await stockOf(b), await stockOf(c)]).toEqual([21, 5, 23]);
  });

  it("a long replay continues in a new message for the same chunk", async () => {
    const count = REPLAY_RECORDS_PER_INVOCATION + 5;
    const taken = unique("TAKEN");
    await createProduct({ variants: [{ internalId: taken }] });
    const p = await createProduct({ variants: Array.from({ length: count }, () => ({})) });
    const records = p.variantIds.map((id, i) =>
      i === 3 ? { id, internal_id: taken } : { id, warehouse_stock: 1000 + i },
    );
    const jobId = await variantsJob(records);
    const { testEnv, sent } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    expect(sent).toEqual([{ jobId, chunk: 0 }]);
    expect((await jobOf(jobId)).summary.processed_records).toBe(REPLAY_RECORDS_PER_INVOCATION);
    await deliver(testEnv, { jobId, chunk: 0 });
    const job = await jobOf(jobId);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({
      processed_records: count,
      succeeded_records: count - 1,
      failed_records: 1,
      log_error_count: 1,
    });
    expect(await stockOf(p.variantIds[count - 1] as number)).toBe(1000 + count - 1);
  });
});

describe("ledger", () => {
  it("a whole-chunk application conflicts with replayed parts of that chunk, and the other way round", async () => {
    const jobId = await variantsJob([{ id: 1 }]);
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET status = 'running' WHERE id = ?").bind(jobId),
      env.DB.prepare("INSERT INTO job_chunks (job_id, chunk_index, part) VALUES (?, 0, 4), (?, 1, -1)").bind(
        jobId,
        jobId,
      ),
    ]);
    const attempt = (chunk: number, part: number) =>
      rawBatch(env.DB, [ledgerInsert(jobId, chunk, part)]).then(
        () => "applied",
        (err) => (isLedgerConflict(err) ? "conflict" : String(err)),
      );
    expect(await attempt(0, WHOLE_CHUNK)).toBe("conflict");
    expect(await attempt(0, 4)).toBe("conflict");
    expect(await attempt(0, 5)).toBe("applied");
    expect(await attempt(1, 7)).toBe("conflict");
    expect(await attempt(2, WHOLE_CHUNK)).toBe("applied");
  });
});

describe("ledger of a job that is not running", () => {
  it("refuses every write, so nothing of a canceled or finished job is applied afterwards", async () => {
    const jobId = await variantsJob([{ id: 1 }]);
    for (const status of ["pending", "failed", "done"]) {
      await env.DB.prepare("UPDATE jobs SET status = ? WHERE id = ?").bind(status, jobId).run();
      const result = await rawBatch(env.DB, [ledgerInsert(jobId, 0, WHOLE_CHUNK)]).then(
        () => "applied",
        (err) => (isJobClosed(err) ? "closed" : String(err)),
      );
      expect(result, status).toBe("closed");
    }
  });
});

describe("queue consumer: failures that are not a record's fault", () => {
  it("a dead-lettered chunk counts its records failed with OTHER; later chunks still run", async () => {
    const p = await createProduct({ variants: [{}, {}, {}, {}, {}] });
    const jobId = await variantsJob(
      p.variantIds.map((id) => ({ id, warehouse_stock: 40 })),
      2,
    );
    const { testEnv, sent } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    const dead = await deliver(testEnv, { jobId, chunk: 1 }, "storefront-jobs-dlq");
    expect(dead.explicitAcks).toHaveLength(1);
    expect(sent.at(-1)).toEqual({ jobId, chunk: 2 });
    await deliver(testEnv, { jobId, chunk: 2 });
    const job = await jobOf(jobId);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({
      processed_records: 5,
      succeeded_records: 3,
      failed_records: 2,
      log_error_count: 2,
    });
    expect((await jobLogs(jobId, "severity=ERROR")).map((e) => [e.code, e.identifiers])).toEqual([
      ["OTHER", { record: { index: 2 } }],
      ["OTHER", { record: { index: 3 } }],
    ]);
    expect((await jobLogs(jobId)).at(-1)).toMatchObject({ severity: "INFO", code: null });
  });

  it("processDeadLetter of a chunk that was applied changes nothing and enqueues nothing again", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const jobId = await variantsJob(
      p.variantIds.map((id) => ({ id, warehouse_stock: 41 })),
      1,
    );
    const { testEnv, sent } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    await processDeadLetter(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    expect(sent).toEqual([{ jobId, chunk: 1 }]);
    expect((await jobOf(jobId)).summary).toMatchObject({ processed_records: 1, failed_records: 0 });
  });

  it("a dead-lettered last chunk finalizes the job: all records lost → failed", async () => {
    const p = await createProduct();
    const jobId = await variantsJob([{ id: p.variantIds[0], warehouse_stock: 1 }]);
    const { testEnv } = capturingEnv();
    await processDeadLetter(testEnv, { jobId, chunk: 0 }, JOB_PIPELINE);
    const job = await jobOf(jobId);
    expect(job.status).toBe("failed");
    expect(job.summary).toMatchObject({ processed_records: 1, failed_records: 1, log_error_count: 1 });
  });

  it("a payload missing from R2 fails its records with OTHER and the job ends failed", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const jobId = await variantsJob(p.variantIds.map((id) => ({ id, warehouse_stock: 2 })));
    await env.PAYLOADS.delete(payloadKey(jobId));
    const { testEnv } = capturingEnv();
    await deliver(testEnv, { jobId, chunk: 0 });
    const job = await jobOf(jobId);
    expect(job.status).toBe("failed");
    expect(job.summary).toMatchObject({ processed_records: 2, failed_records: 2, log_error_count: 2 });
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors.map((e) => e.code)).toEqual(["OTHER", "OTHER"]);
  });

  it("a message that throws is retried, not acked", async () => {
    const jobId = await variantsJob([{ id: 1, warehouse_stock: 1 }]);
    const broken = { ...env, PAYLOADS: undefined } as unknown as typeof env;
    const result = await deliver(broken, { jobId, chunk: 0 });
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
  });
});

describe("finalization", () => {
  it("happens once: two finalize calls write one INFO summary", async () => {
    const jobId = await variantsJob([{ id: 1 }, { id: 2 }]);
    await env.DB.prepare(
      `UPDATE jobs SET status = 'running', processed_records = 2, succeeded_records = 1,
       failed_records = 1, log_error_count = 1 WHERE id = ?`,
    )
      .bind(jobId)
      .run();
    const db = createDb(env.DB);
    const [first, second] = await Promise.all([
      finalizeJob(env, db, jobId, onJobFinalized),
      finalizeJob(env, db, jobId, onJobFinalized),
    ]);
    expect([first, second].filter((j) => j !== null)).toHaveLength(1);
    expect(await finalizeJob(env, db, jobId, onJobFinalized)).toBeNull();
    const job = await jobOf(jobId);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary.log_info_count).toBe(1);
    const logs = await jobLogs(jobId);
    expect(logs).toEqual([
      expect.objectContaining({
        severity: "INFO",
        code: null,
        message: "Job finished: 2 of 2 records processed, 1 succeeded, 1 failed.",
      }),
    ]);
  });
});

describe("multi-chunk job through the real queue", () => {
  it("more than 200 records span several chunks and the job ends done", async () => {
    const p = await createProduct({ variants: Array.from({ length: 450 }, () => ({})) });
    const jobId = await submitBulk("/api/v1/variants/bulk", {
      variants: p.variantIds.map((id, i) => ({ id, warehouse_stock: i })),
      options: { match_by: "id" },
    });
    const seen = new Set<number>();
    for (;;) {
      const job = await jobOf(jobId);
      seen.add(job.summary.processed_records ?? 0);
      if (["done", "done_with_errors", "failed"].includes(job.status)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ total_records: 450, processed_records: 450, succeeded_records: 450 });
    const view = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(view.started_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(view.finished_at >= view.started_at && view.started_at >= view.created_at).toBe(true);
    // Only whole chunks are ever counted.
    expect([...seen].every((n) => [0, 200, 400, 450].includes(n))).toBe(true);
    const ledger = await env.DB.prepare(
      "SELECT chunk_index, part FROM job_chunks WHERE job_id = ? ORDER BY chunk_index",
    )
      .bind(jobId)
      .all();
    expect(ledger.results).toEqual([
      { chunk_index: 0, part: -1 },
      { chunk_index: 1, part: -1 },
      { chunk_index: 2, part: -1 },
    ]);
    expect(await stockOf(p.variantIds[449] as number)).toBe(449);
  });
});

describe("jobs API", () => {
  const BASE = "2020-03-0";
  const staged: Record<string, string> = {};

  async function insertJob(name: string, type: BulkJobType, status: string, createdAt: string) {
    const id = crypto.randomUUID();
    staged[name] = id;
    await env.DB.prepare(
      `INSERT INTO jobs (id, type, status, params, chunk_count, total_records, created_at)
       VALUES (?, ?, ?, '{}', 1, 1, ?)`,
    )
      .bind(id, type, status, createdAt)
      .run();
    return id;
  }

  async function listIds(query: string) {
    const res = await api(`/api/v1/jobs?created_at_from=2020-03-01&created_at_to=2020-03-09&${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.json.data as { id: string }[]).map((j) => j.id);
  }

  it("filters by status (with the completed_with_errors alias), type and created_at; sorts", async () => {
    await insertJob("a", "variants_bulk_update", "done", `${BASE}1T10:00:00Z`);
    await insertJob("b", "products_bulk_upsert", "done_with_errors", `${BASE}2T10:00:00Z`);
    await insertJob("c", "identifiers_link", "failed", `${BASE}3T10:00:00Z`);
    await insertJob("d", "variants_bulk_update", "done_with_errors", `${BASE}4T10:00:00Z`);
    const { a, b, c, d } = staged as Record<"a" | "b" | "c" | "d", string>;
    expect(await listIds("")).toEqual([d, c, b, a]);
    expect(await listIds("sort=created_at_asc")).toEqual([a, b, c, d]);
    expect(await listIds("sort=created_at_desc")).toEqual([d, c, b, a]);
    expect(await listIds("status=completed_with_errors")).toEqual([d, b]);
    expect(await listIds("status=done_with_errors,failed")).toEqual([d, c, b]);
    expect(await listIds("type=variants_bulk_update")).toEqual([d, a]);
    expect(await listIds("type=variants_bulk_update&status=done")).toEqual([a]);
    const range = await api("/api/v1/jobs?created_at_from=2020-03-02&created_at_to=2020-03-03");
    expect(range.json.data.map((j: { id: string }) => j.id)).toEqual([c, b]);
    const exact = await api(
      "/api/v1/jobs?created_at_from=2020-03-02T10:00:00Z&created_at_to=2020-03-02T10:00:00Z",
    );
    expect(exact.json.data.map((j: { id: string }) => j.id)).toEqual([b]);
  });

  it("refuses unknown filter values, sorts and parameters with 400", async () => {
    for (const query of [
      "status=finished",
      "type=nope",
      "sort=id_asc_x",
      "sort=rating_desc",
      "created_at_from=yesterday",
      "foo=1",
    ]) {
      expect((await api(`/api/v1/jobs?${query}`)).status, query).toBe(400);
    }
  });

  it("renders the job's default fields", async () => {
    const id = await insertJob("e", "variants_bulk_update", "done", `${BASE}5T10:00:00Z`);
    const res = await api(`/api/v1/jobs/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      type: "variants_bulk_update",
      status: "done",
      created_at: `${BASE}5T10:00:00Z`,
      started_at: null,
      finished_at: null,
      summary: {
        total_records: 1,
        processed_records: 0,
        succeeded_records: 0,
        failed_records: 0,
        log_info_count: 0,
        log_warning_count: 0,
        log_error_count: 0,
      },
    });
  });

  it("GET /jobs/{id}: 404 for an unknown UUID, 400 for a non-UUID", async () => {
    expect((await api(`/api/v1/jobs/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await api("/api/v1/jobs/not-a-uuid")).status).toBe(400);
    expect((await api("/api/v1/jobs/123")).status).toBe(400);
    expect((await api(`/api/v1/jobs/${crypto.randomUUID()}/logs`)).status).toBe(404);
    expect((await api("/api/v1/jobs/nope/logs")).status).toBe(400);
  });

  it("GET /jobs/{id}/logs filters by code (code=null too), severity and dates; per_page 100 default, 500 max", async () => {
    const id = await insertJob("logs", "variants_bulk_update", "done_with_errors", `${BASE}6T10:00:00Z`);
    const entries: [string, string, string | null][] = [];
    for (let i = 0; i < 120; i++) entries.push(["2020-03-06T10:00:00Z", "ERROR", "NOT_FOUND"]);
    entries.push(["2020-03-07T10:00:00Z", "WARNING", "NOT_FOUND"]);
    entries.push(["2020-03-07T11:00:00Z", "ERROR", "INVALID_FIELD_VALUE"]);
    entries.push(["2020-03-08T10:00:00Z", "INFO", null]);
    await env.DB.batch(
      entries.map(([at, severity, code]) =>
        env.DB.prepare(
          "INSERT INTO job_logs (job_id, created_at, severity, code, message) VALUES (?, ?, ?, ?, 'm')",
        ).bind(id, at, severity, code),
      ),
    );
    const logs = async (query: string) => {
      const res = await api(`/api/v1/jobs/${id}/logs?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      return res.json as { pagination: { per_page: number; total: number }; data: { severity: string }[] };
    };
    const first = await logs("");
    expect(first.pagination).toMatchObject({ per_page: 100, total: 123 });
    expect(first.data).toHaveLength(100);
    expect((await logs("per_page=500")).data).toHaveLength(123);
    expect((await api(`/api/v1/jobs/${id}/logs?per_page=501`)).status).toBe(400);
    expect((await logs("code=null")).data.map((l) => l.severity)).toEqual(["INFO"]);
    expect((await logs("code=INVALID_FIELD_VALUE,null")).pagination.total).toBe(2);
    expect((await logs("code=NOT_FOUND")).pagination.total).toBe(121);
    expect((await logs("severity=WARNING,INFO")).data.map((l) => l.severity)).toEqual(["WARNING", "INFO"]);
    expect((await logs("created_at_from=2020-03-07&created_at_to=2020-03-07")).pagination.total).toBe(2);
    expect((await logs("created_at_from=2020-03-07T11:00:00Z")).pagination.total).toBe(2);
    const desc = await logs("sort=id_desc&per_page=1");
    expect(desc.data[0]?.severity).toBe("INFO");
    expect((await api(`/api/v1/jobs/${id}/logs?code=BAD`)).status).toBe(400);
    expect((await api(`/api/v1/jobs/${id}/logs?severity=DEBUG`)).status).toBe(400);
  });
});

describe("idempotent bulk requests", () => {
  it("the same bulk POST with the same Idempotency-Key returns the same job and creates one job", async () => {
    const p = await createProduct();
    const body = { variants: [{ id: p.variantIds[0], warehouse_stock: 9 }], options: { match_by: "id" } };
    const key = unique("idem");
    const total = async () =>
      (await api("/api/v1/jobs?type=variants_bulk_update&per_page=1")).json.pagination.total as number;
    const before = await total();
    const first = await api("/api/v1/variants/bulk", {
      method: "POST",
      body,
      headers: { "Idempotency-Key": key },
    });
    const second = await api("/api/v1/variants/bulk", {
      method: "POST",
      body,
      headers: { "Idempotency-Key": key },
    });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get("idempotency-replayed")).toBe("true");
    expect(await total()).toBe(before + 1);
    await waitForJob(first.json[0].job_id);
    const other = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: { ...body, options: { match_by: "internal_id" } },
      headers: { "Idempotency-Key": key },
    });
    expect(other.status).toBe(422);
  });
});
