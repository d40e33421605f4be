import { isNull, or } from "drizzle-orm";
import { LOG_CODES } from "../../async/bulk/types.ts";
import { column } from "../../conventions/column-field.ts";
import { dateRangeFilters, enumsFilter, filter } from "../../conventions/filters.ts";
import { defineResource } from "../../conventions/resource.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { JOB_STATUSES, JOB_TYPES, jobLogs, jobs } from "../../db/schema/index.ts";
import { enumListParam } from "../../http/params.ts";
import { JobLogSchema, JobSchema, jobIdParam } from "./jobs.schema.ts";

type JobRow = typeof jobs.$inferSelect;
type LogRow = typeof jobLogs.$inferSelect;

/** `completed_with_errors` is accepted as a filter alias of `done_with_errors`. */
const STATUS_FILTER_VALUES = [...JOB_STATUSES, "completed_with_errors"] as const;

export const jobResource = defineResource<{ row: JobRow; item: typeof JobSchema }>({
  name: "jobs",
  label: "Job",
  path: "/jobs",
  tag: "Jobs",
  plural: "Jobs",
  item: JobSchema,
  idParam: jobIdParam,
  table: jobs,
  idColumn: jobs.id,
  localized: false,
  fields: {
    id: column(jobs.id, "fixed"),
    type: column(jobs.type, "default"),
    status: column(jobs.status, "default"),
    dry_run: column(jobs.dryRun),
    created_at: column(jobs.createdAt, "default"),
    started_at: column(jobs.startedAt, "default"),
    finished_at: column(jobs.finishedAt, "default"),
    summary: {
      kind: "default",
      render: (r) => ({
        total_records: r.totalRecords,
        processed_records: r.processedRecords,
        succeeded_records: r.succeededRecords,
        failed_records: r.failedRecords,
        log_info_count: r.logInfoCount,
        log_warning_count: r.logWarningCount,
        log_error_count: r.logErrorCount,
      }),
    },
    writes: {
      render: (r) => ({ unchanged_records: r.unchangedRecords, rows_written: r.rowsWritten }),
    },
  },
  filters: {
    status: filter(enumListParam(STATUS_FILTER_VALUES, "Job statuses.", 10), (v) =>
      jsonIn(
        jobs.status,
        v.map((s) => (s === "completed_with_errors" ? "done_with_errors" : s)),
      ),
    ),
    type: enumsFilter(jobs.type, JOB_TYPES, "Job types.", 10),
    ...dateRangeFilters("created_at", jobs.createdAt, "Created"),
  },
  sorts: { created_at: { column: jobs.createdAt } },
  defaultSort: "created_at_desc",
});

const CODE_FILTER_VALUES = [...LOG_CODES, "null"] as const;

export const jobLogResource = defineResource<{ row: LogRow; item: typeof JobLogSchema }>({
  name: "job_logs",
  label: "Job log entry",
  path: "/jobs/{id}/logs",
  tag: "Jobs",
  plural: "Logs",
  item: JobLogSchema,
  description: "Processing information, record errors with their identifiers, and a final INFO summary.",
  parent: {
    label: "Job",
    table: jobs,
    idColumn: jobs.id,
    params: jobIdParam,
    column: jobLogs.jobId,
    summary: "List the log entries of a job",
  },
  table: jobLogs,
  idColumn: jobLogs.id,
  localized: false,
  perPage: { default: 100, max: 500 },
  fields: {
    id: column(jobLogs.id, "fixed"),
    created_at: column(jobLogs.createdAt, "default"),
    severity: column(jobLogs.severity, "default"),
    code: column(jobLogs.code, "default"),
    message: column(jobLogs.message, "default"),
    identifiers: column(jobLogs.identifiers, "default"),
    affected_fields: column(jobLogs.affectedFields, "default"),
  },
  filters: {
    code: filter(
      enumListParam(
        CODE_FILTER_VALUES,
        "Log codes; `null` selects informational entries without a code.",
        10,
      ),
      (v) => {
        const codes = v.filter((c) => c !== "null");
        const wantsNull = v.includes("null");
        if (codes.length === 0) return isNull(jobLogs.code);
        return wantsNull
          ? or(jsonIn(jobLogs.code, codes), isNull(jobLogs.code))
          : jsonIn(jobLogs.code, codes);
      },
    ),
    severity: enumsFilter(jobLogs.severity, ["ERROR", "INFO", "WARNING"], "Severities."),
    ...dateRangeFilters("created_at", jobLogs.createdAt, "Written"),
  },
  sorts: { id: { column: jobLogs.id } },
  defaultSort: "id_asc",
});
