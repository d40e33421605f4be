import type { SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { CacheDomain } from "../../db/cache-generations.ts";
import { rawBatch } from "../../db/raw.ts";
import type { BULK_JOB_TYPES, EXPORT_JOB_TYPES, jobs } from "../../db/schema/jobs.ts";
import type { Bindings, Db } from "../../env.ts";
import type { DryRunMemory } from "./dry-run-memory.ts";
import type { RowOps } from "./row-ops.ts";

/** The type of a job that applies a payload of records. */
export type BulkJobType = (typeof BULK_JOB_TYPES)[number];
/** The type of a job that writes a file out of the catalog. */
export type ExportJobType = (typeof EXPORT_JOB_TYPES)[number];
export type JobRow = typeof jobs.$inferSelect;

/** A queue message: a pointer to one chunk of a job, never the payload itself. */
export interface JobMessage {
  jobId: string;
  chunk: number;
  /** The chunk's byte range in the payload object, when the sender knew it: R2 reads it while D1 opens the chunk. */
  at?: [offset: number, length: number];
  /**
   * What the job's last commit wrote and left unchanged (known once its batch committed), added to
   * the job's `writes` by the batch that commits this message's work, or by the job's finalization.
   */
  written?: Unrecorded;
}

/** Rows written and unchanged records of committed batches, not yet in the job's `writes`. */
export interface Unrecorded {
  rows: number;
  unchanged: number;
}

export const LOG_CODES = [
  "AMBIGUOUS_MATCH",
  "INVALID_FIELD_VALUE",
  "INVALID_IDENTIFIER",
  "MISSING_REQUIRED_FIELD",
  "NOT_FOUND",
  "OTHER",
] as const;
export type LogCode = (typeof LOG_CODES)[number];
type Severity = "INFO" | "WARNING" | "ERROR";

export interface LogEntry {
  severity: Severity;
  code: LogCode | null;
  message: string;
  identifiers: Record<string, unknown> | null;
  affected_fields: string[] | null;
}

/** What one record came to: success (maybe with warnings) or one ERROR entry. */
export interface RecordOutcome {
  index: number;
  ok: boolean;
  logs: LogEntry[];
}

export interface ChunkRecord {
  /** Position of the record in the whole payload (for `{"record": {"index": n}}` identifiers). */
  index: number;
  data: unknown;
}

export interface ProcessorContext {
  db: Db;
  env: Bindings;
  job: JobRow;
  /** Today's UTC date, for flash-offer checks. */
  today: string;
  /**
   * In a dry run, what the job counted as applied before this plan: a processor lays its rows over
   * what its lookups read, so it judges each record as a real run would (src/async/bulk/dry-run.ts).
   */
  dryRun?: DryRunMemory;
  /**
   * The edge cache domains the job's operation changes (bumped with each committed change); the
   * consumer always sets them, a test that only plans may leave them out.
   */
  invalidates?: readonly CacheDomain[];
  /**
   * What commits wrote whose figures are not yet in the job's `writes` (D1 reports rows written only
   * after a batch commits): the next commit of this invocation adds them in its batch, and what
   * remains at the end travels in the next message (JobMessage.written). A real run's only.
   */
  unrecorded?: Unrecorded;
}

export interface Plan {
  outcomes: RecordOutcome[];
  /** Statements applying every successful record of the plan, run in one batch with the ledger. */
  statements: SQL[];
  /** The row ops behind `statements`: a dry run remembers the rows they write. */
  ops?: RowOps;
  /**
   * How many succeeded records changed nothing: an SQL expression read after `statements` ran, in
   * their batch (the rows they changed are stamped, row-ops.ts), added to the job's `writes`.
   */
  unchanged?: SQL;
  /** The instant the plan's writes stamp changed rows with (its change feed entries follow them). */
  stamp?: string;
  /**
   * A real run's statements without the ops that would write nothing: `ops`' change checks run
   * (one round trip, src/async/bulk/change-checks.ts) and `statements` built again from the ops
   * they kept. Absent for a plan without ops.
   */
  pruned?: (d1: D1Database) => Promise<SQL[]>;
  /** The SELECTs `pruned` runs (the statement-plan tests explain them). */
  changeChecks?: () => SQL[];
}

/**
 * The plan of the records planned into `ops`: its statements write the ops (merging rows of
 * `upsertTables` by key, inserting those missing) and stamp what they change with `now`; `after`
 * follow them (written by hand, not through the ops).
 */
export const planOf = (
  outcomes: RecordOutcome[],
  ops: RowOps,
  now: string,
  unchanged: SQL,
  upsertTables: ReadonlySet<SQLiteTable> = new Set(),
  after: SQL[] = [],
): Plan => {
  let built: SQL[] | undefined;
  return {
    outcomes,
    get statements() {
      built ??= [...ops.statements(upsertTables, now), ...after];
      return built;
    },
    ops,
    unchanged,
    stamp: now,
    changeChecks: () => ops.changeChecks(upsertTables),
    pruned: async (d1) => {
      const checks = ops.changeChecks(upsertTables);
      if (checks.length > 0) ops.keepChanged(await rawBatch(d1, checks));
      built = [...ops.statements(upsertTables, now), ...after];
      return built;
    },
  };
};

/**
 * One bulk operation: validates its records (reading what it needs in a few set-based queries)
 * and returns the statements that apply the valid ones. It never writes by itself.
 */
export interface Processor {
  plan(ctx: ProcessorContext, records: ChunkRecord[]): Promise<Plan>;
  /** The `identifiers` of a record's log entries (also when applying it failed on a constraint). */
  identify(job: JobRow, record: ChunkRecord): Record<string, unknown>;
  /** Payload paths behind a UNIQUE constraint the record violated (`constraint` is SQLite's text). */
  conflictFields?(job: JobRow, constraint: string, data: unknown): string[];
}
