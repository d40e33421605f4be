import { seedTime } from "./clock.ts";
import { insertRows, type Row, type SeedStatement } from "./sql.ts";

/**
 * A few finished demo jobs with their logs, one per final status, so the jobs API has something to
 * show before anyone posts a bulk request. (The hourly retention purges them like any job.)
 */
const JOBS = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    type: "variants_bulk_update",
    status: "done",
    total: 3,
    ok: 3,
    errors: [] as {
      index: number;
      code: string;
      message: string;
      identifiers: object;
      fields: string[] | null;
    }[],
  },
  {
    id: "00000000-0000-4000-8000-000000000002",
    type: "products_bulk_upsert",
    status: "done_with_errors",
    total: 4,
    ok: 2,
    errors: [
      {
        index: 1,
        code: "NOT_FOUND",
        message: "No product has id 999999",
        identifiers: { product: { id: 999999 } },
        fields: ["id"],
      },
      {
        index: 3,
        code: "INVALID_FIELD_VALUE",
        message: "variants.0.prices.market_en.list_price.currency: must be GBP, the currency of market_en",
        identifiers: { product: { id: 2 } },
        fields: ["variants.0.prices.market_en.list_price.currency"],
      },
    ],
  },
  {
    id: "00000000-0000-4000-8000-000000000003",
    type: "identifiers_link",
    status: "failed",
    total: 1,
    ok: 0,
    errors: [
      {
        index: 0,
        code: "AMBIGUOUS_MATCH",
        message: "2 variants match: 37, 41",
        identifiers: { variant: { ean: "8400000000377" } },
        fields: null,
      },
    ],
  },
] as const;

export function jobStatements(): SeedStatement[] {
  const jobs: Row[] = [];
  const logs: Row[] = [];
  JOBS.forEach((job, i) => {
    const created = seedTime(60 * 24 * 10 + i * 90);
    const finished = seedTime(60 * 24 * 10 + i * 90 + 2);
    const failed = job.total - job.ok;
    jobs.push({
      id: job.id,
      type: job.type,
      status: job.status,
      params: JSON.stringify({ options: { match_by: "id" }, chunkSizes: [job.total] }),
      payload_key: null,
      chunk_count: 1,
      total_records: job.total,
      processed_records: job.total,
      succeeded_records: job.ok,
      failed_records: failed,
      log_info_count: 1,
      log_warning_count: 0,
      log_error_count: job.errors.length,
      created_at: created,
      started_at: created,
      finished_at: finished,
    });
    for (const e of job.errors) {
      logs.push({
        job_id: job.id,
        created_at: finished,
        severity: "ERROR",
        code: e.code,
        message: e.message,
        identifiers: JSON.stringify(e.identifiers),
        affected_fields: e.fields ? JSON.stringify(e.fields) : null,
      });
    }
    logs.push({
      job_id: job.id,
      created_at: finished,
      severity: "INFO",
      code: null,
      message: `Job finished: ${job.total} of ${job.total} records processed, ${job.ok} succeeded, ${failed} failed.`,
      identifiers: null,
      affected_fields: null,
    });
  });
  return [...insertRows("jobs", jobs), ...insertRows("job_logs", logs)];
}
