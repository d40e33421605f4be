import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { payloadKey } from "../../src/async/bulk/chunking.ts";
import { runJobRetention } from "../../src/async/bulk/retention.ts";
import { onJobFinalized } from "../../src/resources/webhooks/job-finalized.ts";
import { runScheduled } from "../support/queues.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-20T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A finished job as the pipeline leaves it: row, ledger, logs and its chunk objects in R2. */
async function insertJob(status: string, ageDays: number) {
  const id = crypto.randomUUID();
  const createdAt = iso(NOW - ageDays * DAY);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO jobs (id, type, status, params, payload_key, chunk_count, total_records, created_at)
       VALUES (?, 'variants_bulk_update', ?, '{}', ?, 2, 2, ?)`,
    ).bind(id, status, payloadKey(id), createdAt),
    env.DB.prepare(
      `INSERT INTO job_chunk_ranges (job_id, chunk_index, first_record, record_count, byte_offset, byte_length)
       VALUES (?, 0, 0, 1, 12, 2), (?, 1, 1, 1, 15, 2)`,
    ).bind(id, id),
    env.DB.prepare("INSERT INTO job_chunks (job_id, chunk_index, part) VALUES (?, 0, -1), (?, 1, -1)").bind(
      id,
      id,
    ),
    env.DB.prepare(
      `INSERT INTO job_logs (job_id, created_at, severity, code, message)
       VALUES (?, ?, 'ERROR', 'NOT_FOUND', 'x'), (?, ?, 'INFO', NULL, 'summary')`,
    ).bind(id, createdAt, id, createdAt),
  ]);
  await env.PAYLOADS.put(payloadKey(id), '{"records":[{},{}]}');
  return id;
}

async function remains(id: string) {
  const count = async (table: string, column: string) =>
    (
      await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`)
        .bind(id)
        .first<{ n: number }>()
    )?.n ?? 0;
  const objects = (await env.PAYLOADS.list({ prefix: `jobs/${id}/` })).objects.length;
  return {
    job: await count("jobs", "id"),
    logs: await count("job_logs", "job_id"),
    ledger: await count("job_chunks", "job_id"),
    ranges: await count("job_chunk_ranges", "job_id"),
    objects,
  };
}

const GONE = { job: 0, logs: 0, ledger: 0, ranges: 0, objects: 0 };
const KEPT = { job: 1, logs: 2, ledger: 2, ranges: 2, objects: 1 };

const runCron = (scheduledTime: number) => runScheduled("0 * * * *", scheduledTime);

describe("retention (hourly cron)", () => {
  it("deletes done jobs older than 5 days with their logs, ledger rows and payload objects", async () => {
    const old = await insertJob("done", 5.1);
    const young = await insertJob("done", 4.9);
    await runCron(NOW);
    expect(await remains(old)).toEqual(GONE);
    expect(await remains(young)).toEqual(KEPT);
  });

  it("keeps failed and done_with_errors jobs until 30 days", async () => {
    const failed10 = await insertJob("failed", 10);
    const errors10 = await insertJob("done_with_errors", 10);
    const failed31 = await insertJob("failed", 31);
    const errors31 = await insertJob("done_with_errors", 31);
    await runJobRetention(env, NOW, onJobFinalized);
    expect(await remains(failed10)).toEqual(KEPT);
    expect(await remains(errors10)).toEqual(KEPT);
    expect(await remains(failed31)).toEqual(GONE);
    expect(await remains(errors31)).toEqual(GONE);
  });

  it("keeps jobs still pending or running within 30 days", async () => {
    const pending = await insertJob("pending", 29);
    const running = await insertJob("running", 29);
    await runJobRetention(env, NOW, onJobFinalized);
    expect(await remains(pending)).toEqual(KEPT);
    expect(await remains(running)).toEqual(KEPT);
  });

  it("fails a job still pending or running after 30 days, then collects it with its logs and payload", async () => {
    const pending = await insertJob("pending", 60);
    const running = await insertJob("running", 31);
    const closedAs: Record<string, string> = {};
    const onFinal = async (_env: unknown, job: { id: string; status: string }) => {
      closedAs[job.id] = job.status;
    };
    await runJobRetention(env, NOW, onFinal);
    expect(await remains(pending)).toEqual(GONE);
    expect(await remains(running)).toEqual(GONE);
    // They became final first (hooks ran, so subscribers heard of it): nothing processed, so failed.
    expect(closedAs).toEqual({ [pending]: "failed", [running]: "failed" });
  });

  it("leaves no payload object in R2 without its job", async () => {
    const ids = [
      await insertJob("done", 6),
      await insertJob("failed", 40),
      await insertJob("running", 45),
      await insertJob("done", 1),
    ];
    await runJobRetention(env, NOW, onJobFinalized);
    const listed = (await env.PAYLOADS.list({ prefix: "jobs/" })).objects.map((o) => o.key);
    const jobIds = new Set(
      (await env.DB.prepare("SELECT id FROM jobs").all<{ id: string }>()).results.map((r) => r.id),
    );
    expect(listed.filter((key) => !jobIds.has(key.split("/")[1] ?? ""))).toEqual([]);
    expect(ids.map((id) => listed.includes(payloadKey(id)))).toEqual([false, false, false, true]);
  });

  it("is safe to run twice (and after an interrupted run)", async () => {
    const old = await insertJob("done", 6);
    // An interrupted run: the payload went, the rows stayed.
    await env.PAYLOADS.delete(payloadKey(old));
    await runJobRetention(env, NOW, onJobFinalized);
    await runJobRetention(env, NOW, onJobFinalized);
    expect(await remains(old)).toEqual(GONE);
  });

  it("deletes more expired jobs than one batch holds", async () => {
    const prefix = "00000000-0000-4000-8000-";
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 450)
       INSERT INTO jobs (id, type, status, params, chunk_count, total_records, created_at)
       SELECT ? || printf('%012d', i), 'identifiers_link', 'done', '{}', 1, 1, ? FROM n`,
    )
      .bind(prefix, iso(NOW - 7 * DAY))
      .run();
    const { jobs } = await runJobRetention(env, NOW, onJobFinalized);
    expect(jobs).toBeGreaterThanOrEqual(450);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE id LIKE ?")
      .bind(`${prefix}%`)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("purges expired idempotency keys and keeps live ones", async () => {
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, state, created_at, expires_at)
         VALUES (1, 'expired-key', 'f', 'done', ?, ?), (1, 'live-key', 'f', 'done', ?, ?)`,
      ).bind(iso(NOW - 2 * DAY), iso(NOW - DAY), iso(NOW), iso(NOW + DAY)),
    ]);
    await runCron(NOW);
    const keys = await env.DB.prepare(
      "SELECT key FROM idempotency_keys WHERE key IN ('expired-key', 'live-key')",
    ).all<{ key: string }>();
    expect(keys.results.map((k) => k.key)).toEqual(["live-key"]);
  });
});

describe("planner statistics (hourly cron)", () => {
  it("refreshes SQLite's statistics so the planner knows table sizes", async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
       INSERT INTO reviews (id, type, locale, status, rating, content, reviewer_name, reviewer_email, created_at, updated_at)
       SELECT 770000 + i, 'store', 'es-ES', 'published', 1 + i % 5, 'ok', 'R', 'r@example.test',
              '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n`,
    ).run();
    const stats = async () =>
      (
        await env.DB.prepare("SELECT COUNT(*) AS n FROM sqlite_stat1 WHERE tbl = 'reviews'").first<{
          n: number;
        }>()
      )?.n ?? 0;
    await runCron(NOW);
    expect(await stats()).toBeGreaterThan(0);
  });
});
