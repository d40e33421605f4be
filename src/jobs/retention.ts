import { sql } from "drizzle-orm";
import { createDb } from "../db/client.ts";
import { rawBatch } from "../db/raw.ts";
import type { Bindings } from "../env.ts";
import { purgeExpiredIdempotencyKeys } from "../http/idempotency.ts";
import { purgeOldWebhookDeliveries } from "../webhooks/retention.ts";
import { chunkKey } from "./chunking.ts";

/** Jobs per round: one select, a few R2 deletes (1,000 keys each) and one D1 batch. */
const BATCH = 100;
const R2_DELETE_MAX_KEYS = 1000;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Hourly retention: jobs with their logs, ledger rows and R2 payloads go 5 days after creation when
 * `done`, 30 days when `failed` or `done_with_errors`. Bounded batches; safe to run twice or to be
 * interrupted (payloads are deleted before their job row, so a rerun finds what is left).
 */
export async function runRetention(env: Bindings, now: number, maxBatches = 20): Promise<{ jobs: number }> {
  const db = createDb(env.DB);
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const expired = await db.all<{ id: string; chunk_count: number }>(sql`
      SELECT id, chunk_count FROM jobs
      WHERE (status = 'done' AND created_at <= ${iso(now - 5 * DAY_MS)})
         OR (status IN ('failed', 'done_with_errors') AND created_at <= ${iso(now - 30 * DAY_MS)})
      LIMIT ${BATCH}`);
    if (expired.length === 0) break;
    await deletePayloads(env, expired);
    const ids = JSON.stringify(expired.map((j) => j.id));
    // rawBatch: drizzle's own batch cannot bind the parameters of raw `sql` queries.
    await rawBatch(env.DB, [
      sql`DELETE FROM job_logs WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM job_chunks WHERE job_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(${ids}))`,
    ]);
    deleted += expired.length;
  }
  const nowIso = iso(now);
  while ((await purgeExpiredIdempotencyKeys(env.DB, nowIso)) >= 500) {
    // keep going: each call deletes a bounded batch
  }
  // Webhook delivery attempts: 30 days.
  await purgeOldWebhookDeliveries(env.DB, now);
  return { jobs: deleted };
}

/** The chunk objects by their known keys (no listing), at most 1,000 keys per R2 call. */
async function deletePayloads(env: Bindings, expired: { id: string; chunk_count: number }[]) {
  const keys = expired.flatMap((j) => Array.from({ length: j.chunk_count }, (_, i) => chunkKey(j.id, i)));
  for (let i = 0; i < keys.length; i += R2_DELETE_MAX_KEYS) {
    await env.PAYLOADS.delete(keys.slice(i, i + R2_DELETE_MAX_KEYS));
  }
}
