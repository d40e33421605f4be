const BATCH = 500;

import { isoSeconds } from "../../lib/time.ts";

/** Deletes up to `limit` delivery attempts recorded before `cutoffIso`; returns how many went. */
async function purgeWebhookDeliveries(db: D1Database, cutoffIso: string, limit = BATCH) {
  const result = await db
    .prepare(
      `DELETE FROM webhook_deliveries WHERE id IN
         (SELECT id FROM webhook_deliveries WHERE created_at < ? LIMIT ?)`,
    )
    .bind(cutoffIso, limit)
    .run();
  return result.meta.changes ?? 0;
}

/** Attempts are kept 30 days; the hourly cron deletes older ones in bounded batches. */
const DELIVERY_RETENTION_MS = 30 * 86_400_000;

export async function purgeOldWebhookDeliveries(db: D1Database, nowMs: number, maxBatches = 50) {
  const cutoff = isoSeconds(nowMs - DELIVERY_RETENTION_MS);
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await purgeWebhookDeliveries(db, cutoff);
    deleted += n;
    if (n < BATCH) break;
  }
  return deleted;
}
