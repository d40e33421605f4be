import { sql } from "drizzle-orm";
import { createDb } from "../db/client.ts";
import type { Bindings } from "../env.ts";
import { purgeExpiredIdempotencyKeys } from "../http/idempotency.ts";
import { jobPayloadPrefix } from "./chunking.ts";

const BATCH = 200;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Hourly retention: jobs with their logs, ledger rows and R2 payloads go 5 days after creation when
 * `done`, 30 days when `failed` or `done_with_errors`. Bounded batches; safe to run twice or to be
 * interrupted (payloads are deleted before their job row, so a rerun finds what is left).
 */
export async function runRetention(env: Bindings, now: number, maxBatches = 50): Promise<{ jobs: number }> {
  const db = createDb(env.DB);
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const expired = await db.all<{ id: string }>(sql`
      SELECT id FROM jobs
      WHERE (status = 'done' AND created_at <= ${iso(now - 5 * DAY_MS)})
         OR (status IN ('failed', 'done_with_errors') AND created_at <= ${iso(now - 30 * DAY_MS)})
      LIMIT ${BATCH}`);
    if (expired.length === 0) break;
    for (const { id } of expired) await deletePayload(env, id);
    const ids = JSON.stringify(expired.map((j) => j.id));
    await db.batch([
      db.run(sql`DELETE FROM job_logs WHERE job_id IN (SELECT value FROM json_each(${ids}))`),
      db.run(sql`DELETE FROM job_chunks WHERE job_id IN (SELECT value FROM json_each(${ids}))`),
      db.run(sql`DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(${ids}))`),
    ]);
    deleted += expired.length;
  }
  const nowIso = iso(now);
  while ((await purgeExpiredIdempotencyKeys(env.DB, nowIso)) >= 500) {
    // keep going: each call deletes a bounded batch
  }
  return { jobs: deleted };
}

async function deletePayload(env: Bindings, jobId: string) {
  let cursor: string | undefined;
  do {
    const listed = await env.PAYLOADS.list({ prefix: jobPayloadPrefix(jobId), cursor });
    if (listed.objects.length > 0) await env.PAYLOADS.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}
