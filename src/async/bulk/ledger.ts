import { type SQL, sql } from "drizzle-orm";
import { jobLogs } from "../../db/schema/index.ts";
import { constraintViolation, isUniqueViolation } from "../../lib/errors.ts";
import { isoSeconds } from "../../lib/time.ts";
import { insertJson } from "./bulk-sql.ts";
import type { LogEntry, RecordOutcome } from "./types.ts";

export const WHOLE_CHUNK = -1;

/**
 * The ledger row of applied work, first in its batch: its primary key makes a second application
 * fail the batch before any effect. An `exclusive` row also fails when the other kind of
 * application of the chunk committed first (a whole-chunk row after replayed parts, a part after
 * the whole chunk) by inserting the conflicting row again, so two deliveries of one chunk running
 * at the same time never apply a record twice. The closing mark of a replay is not exclusive.
 * The job id is read from a job that is still `running`: once a job is final (canceled, given up,
 * finalized), any batch of its chunks fails on the NOT NULL job id and applies nothing.
 */
export const ledgerInsert = (jobId: string, chunk: number, part: number, exclusive = true): SQL => {
  const runningJob = sql`(SELECT id FROM jobs WHERE id = ${jobId} AND status = 'running')`;
  return exclusive
    ? sql`INSERT INTO job_chunks (job_id, chunk_index, part) VALUES (${runningJob}, ${chunk}, COALESCE(
        (SELECT part FROM job_chunks WHERE job_id = ${jobId} AND chunk_index = ${chunk}
           AND (${part} = ${WHOLE_CHUNK} OR part = ${WHOLE_CHUNK}) LIMIT 1), ${part}))`
    : sql`INSERT INTO job_chunks (job_id, chunk_index, part) VALUES (${runningJob}, ${chunk}, ${part})`;
};

function logInsert(jobId: string, entries: LogEntry[]): SQL[] {
  const at = isoSeconds();
  return insertJson(
    jobLogs,
    ["job_id", "created_at", "severity", "code", "message", "identifiers", "affected_fields"],
    entries.map((e) => ({
      job_id: jobId,
      created_at: at,
      severity: e.severity,
      code: e.code,
      message: e.message,
      identifiers: e.identifiers,
      affected_fields: e.affected_fields,
    })),
  );
}

/** Adds a set of outcomes to the job's summary counters. */
function countersUpdate(jobId: string, outcomes: RecordOutcome[]): SQL {
  const logs = outcomes.flatMap((o) => o.logs);
  const by = (s: LogEntry["severity"]) => logs.filter((l) => l.severity === s).length;
  const ok = outcomes.filter((o) => o.ok).length;
  return sql`UPDATE jobs SET
      processed_records = processed_records + ${outcomes.length},
      succeeded_records = succeeded_records + ${ok},
      failed_records = failed_records + ${outcomes.length - ok},
      log_info_count = log_info_count + ${by("INFO")},
      log_warning_count = log_warning_count + ${by("WARNING")},
      log_error_count = log_error_count + ${by("ERROR")},
      heartbeat_at = ${isoSeconds()},
      redrives = 0
    WHERE id = ${jobId}`;
}

/** Ledger + logs + counters for a set of outcomes: the ledger row goes first in the batch that applies them. */
export function bookkeeping(
  jobId: string,
  chunk: number,
  part: number,
  outcomes: RecordOutcome[],
  exclusive = true,
): SQL[] {
  return [
    ledgerInsert(jobId, chunk, part, exclusive),
    ...logInsert(
      jobId,
      outcomes.flatMap((o) => o.logs),
    ),
    countersUpdate(jobId, outcomes),
  ];
}

/**
 * Adds to the job's `writes` (DECISIONS §14): records that changed nothing and rows their effects wrote.
 */
export const addWrites = (jobId: string, { unchanged, rows }: { unchanged?: number; rows?: number }) =>
  sql`UPDATE jobs SET unchanged_records = unchanged_records + ${unchanged ?? 0},
      rows_written = rows_written + ${rows ?? 0} WHERE id = ${jobId}`;

export const isLedgerConflict = (err: unknown) => isUniqueViolation(err, "job_chunks");

/** The batch failed because the job is no longer running (see `ledgerInsert`). */
export const isJobClosed = (err: unknown) =>
  constraintViolation("NOT NULL", err, "job_chunks") === "job_chunks.job_id";
