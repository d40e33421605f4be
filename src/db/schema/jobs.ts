import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, timestamp } from "./columns.ts";

/** Jobs that apply a payload of records (src/async/bulk/). */
export const BULK_JOB_TYPES = [
  "products_bulk_upsert",
  "variants_bulk_update",
  "price_list_variant_prices_bulk_update",
  "identifiers_link",
] as const;
/** Jobs that write a file of records out of the catalog (src/async/exports/). */
export const EXPORT_JOB_TYPES = ["products_export", "variants_export"] as const;
export const JOB_TYPES = [...BULK_JOB_TYPES, ...EXPORT_JOB_TYPES] as const;
export const JOB_STATUSES = ["pending", "running", "done", "done_with_errors", "failed"] as const;

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: JOB_TYPES }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    /** Parameters of the operation outside the records (options, price list id). */
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** `options.dry_run`: records are validated and matched, their effects rolled back (src/async/bulk/dry-run.ts). */
    dryRun: integer("dry_run", { mode: "boolean" }).notNull().default(false),
    payloadKey: text("payload_key"),
    chunkCount: integer("chunk_count").notNull().default(0),
    totalRecords: integer("total_records").notNull().default(0),
    processedRecords: integer("processed_records").notNull().default(0),
    succeededRecords: integer("succeeded_records").notNull().default(0),
    failedRecords: integer("failed_records").notNull().default(0),
    logInfoCount: integer("log_info_count").notNull().default(0),
    logWarningCount: integer("log_warning_count").notNull().default(0),
    logErrorCount: integer("log_error_count").notNull().default(0),
    apiKeyId: integer("api_key_id"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at"),
    finishedAt: timestamp("finished_at"),
    /** Last sign of life: start, each committed chunk or record, each re-drive (src/async/bulk/liveness.ts). */
    heartbeatAt: timestamp("heartbeat_at"),
    /** Re-drives since the job last made progress. */
    redrives: integer("redrives").notNull().default(0),
    /** Succeeded records whose values equal what was stored: they wrote no row (field `writes`). */
    unchangedRecords: integer("unchanged_records").notNull().default(0),
    /** D1's rows written by the job's catalog statements, index rows included (field `writes`). */
    rowsWritten: integer("rows_written").notNull().default(0),
  },
  (t) => [
    index("jobs_created_idx").on(t.createdAt, t.id),
    index("jobs_status_idx").on(t.status, t.createdAt),
    index("jobs_type_idx").on(t.type, t.createdAt),
  ],
);

/** The job a row belongs to, deleted with it. */
const jobOwner = () =>
  text("job_id")
    .notNull()
    .references(() => jobs.id, { onDelete: "cascade" });

/**
 * Ledger of applied work, written in the same batch as the work: a redelivered message finds its
 * rows and applies nothing twice. `part` is -1 for a whole chunk, or the record index when a chunk
 * is replayed one record per batch.
 */
export const jobChunks = sqliteTable(
  "job_chunks",
  {
    jobId: jobOwner(),
    chunkIndex: integer("chunk_index").notNull(),
    part: integer("part").notNull().default(-1),
    appliedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunkIndex, t.part] })],
);

/**
 * Where each chunk of a job lies in its payload object (byte range) and which records it holds,
 * written when the job is accepted.
 */
export const jobChunkRanges = sqliteTable(
  "job_chunk_ranges",
  {
    jobId: jobOwner(),
    chunkIndex: integer("chunk_index").notNull(),
    firstRecord: integer("first_record").notNull(),
    recordCount: integer("record_count").notNull(),
    byteOffset: integer("byte_offset").notNull(),
    byteLength: integer("byte_length").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunkIndex] })],
);

export const jobLogs = sqliteTable(
  "job_logs",
  {
    id: id(),
    jobId: jobOwner(),
    createdAt: createdAt(),
    severity: text("severity", { enum: ["INFO", "WARNING", "ERROR"] }).notNull(),
    code: text("code"),
    message: text("message").notNull(),
    identifiers: text("identifiers", { mode: "json" }).$type<Record<string, unknown>>(),
    affectedFields: text("affected_fields", { mode: "json" }).$type<string[]>(),
  },
  (t) => [
    index("job_logs_job_idx").on(t.jobId, t.id),
    index("job_logs_job_severity_idx").on(t.jobId, t.severity, t.id),
    index("job_logs_job_code_idx").on(t.jobId, t.code, t.id),
    index("job_logs_job_created_idx").on(t.jobId, t.createdAt),
  ],
);

/**
 * What a dry run counted as applied, in the order it did (src/async/bulk/dry-run.ts): each
 * statement of its effects, and the rows those wrote as the bulk lookups read them. Written in the
 * batch of the ledger row of the work, so a redelivered message adds nothing; read by every later
 * message of the job, deleted when the job ends.
 */
export const jobDryRunEffects = sqliteTable(
  "job_dry_run_effects",
  {
    id: id(),
    jobId: jobOwner(),
    /**
     * The rows the effects wrote (`RowOp`s, the columns the lookups read), as JSON. Before the
     * statements' columns: SQLite reads a row's columns in order, so reading only these rows of a
     * 10 MB payload's memory would otherwise walk every statement's parameters (1.8 s a message).
     */
    rows: text("rows"),
    /** A statement of the effects: its SQL text and JSON parameters. */
    query: text("query"),
    params: text("params"),
  },
  (t) => [index("job_dry_run_effects_job_idx").on(t.jobId, t.id)],
);

/**
 * An export job's progress (src/async/exports/): where its next message resumes, the R2 multipart
 * upload its messages add parts to, and the bytes carried over from a part to the next.
 * One row per export job, written in the batch of each message's ledger row.
 */
export const jobExports = sqliteTable("job_exports", {
  jobId: jobOwner().primaryKey(),
  format: text("format", { enum: ["jsonl", "csv"] }).notNull(),
  /** The highest ids when the export started (`{"id": …, "variant": …}`): rows created later are not exported. */
  bounds: text("bounds", { mode: "json" }).$type<Record<string, number>>(),
  /** The id of the last listed row written (pages resume after it). */
  cursor: integer("cursor").notNull().default(0),
  /** The R2 multipart upload, once the first full part is written. */
  uploadId: text("upload_id"),
  /** Part numbers handed out (a range per delivery, so two deliveries never share one). */
  partSeq: integer("part_seq").notNull().default(0),
  /** The uploaded parts the next messages build on: `[{"partNumber": n, "etag": "…"}]`. */
  parts: text("parts", { mode: "json" })
    .$type<{ partNumber: number; etag: string }[]>()
    .notNull()
    .default([]),
  /** The R2 key of the bytes written after the last full part, read first by the next message. */
  carryKey: text("carry_key"),
  /** Bytes of the file so far (parts and carry): gzip-compressed, as stored. */
  bytes: integer("bytes").notNull().default(0),
  /** Bytes of the file's text so far (decompressed): the gzip trailer's length, `Content-Length` without gzip. */
  textBytes: integer("text_bytes").notNull().default(0),
  /** CRC-32 of the file's text so far, continued by each message (the gzip trailer's checksum). */
  textCrc: integer("text_crc").notNull().default(0),
  /** Set when the file is complete in R2. */
  completedAt: timestamp("completed_at"),
});
