import { isNull, or } from "drizzle-orm";
import { LOG_CODES } from "../../async/bulk-jobs/types.ts";
import { dateRangeFilters } from "../../conventions/filters.ts";
import { defineResource } from "../../conventions/resource.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { JOB_STATUSES, JOB_TYPES, jobLogs, jobs } from "../../db/schema/index.ts";
import { enumItem, listParam } from "../../http/params.ts";
import { JobLogSchema, JobSchema, jobIdParam } from "./jobs.schema.ts";

type JobRow = typeof jobs.$inferSelect;
type LogRow = typeof jobLogs.$inferSelect;

/** `completed_with_errors` is accepted as a filter alias of `done_with_errors`. */
const STATUS_FILTER_VALUES = [...JOB_STATUSES, "completed_with_errors"] as const;

export const jobResource = defineResource<JobRow>({
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
    id: { kind: "fixed", render: (r) => r.id },
    type: { kind: "default", render: (r) => r.type },
    status: { kind: "default", render: (r) => r.status },
    created_at: { kind: "default", render: (r) => r.createdAt },
    started_at: { kind: "default", render: (r) => r.startedAt },
    finished_at: { kind: "default", render: (r) => r.finishedAt },
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
  },
  filters: {
    status: {
      schema: listParam(enumItem(STATUS_FILTER_VALUES), {
        itemType: "string",
        max: 10,
        description: "Job statuses.",
      }),
      where: (v: string[]) =>
        jsonIn(
          jobs.status,
          v.map((s) => (s === "completed_with_errors" ? "done_with_errors" : s)),
        ),
    },
    type: {
      schema: listParam(enumItem(JOB_TYPES), { itemType: "string", max: 10, description: "Job types." }),
      where: (v: string[]) => jsonIn(jobs.type, v),
    },
    ...dateRangeFilters("created_at", jobs.createdAt, "Created"),
  },
  sorts: { created_at: { column: jobs.createdAt } },
  defaultSort: "created_at_desc",
});

const CODE_FILTER_VALUES = [...LOG_CODES, "null"] as const;

export const jobLogResource = defineResource<LogRow>({
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
    id: { kind: "fixed", render: (r) => r.id },
    created_at: { kind: "default", render: (r) => r.createdAt },
    severity: { kind: "default", render: (r) => r.severity },
    code: { kind: "default", render: (r) => r.code },
    message: { kind: "default", render: (r) => r.message },
    identifiers: { kind: "default", render: (r) => r.identifiers },
    affected_fields: { kind: "default", render: (r) => r.affectedFields },
  },
  filters: {
    code: {
      schema: listParam(enumItem(CODE_FILTER_VALUES), {
        itemType: "string",
        max: 10,
        description: "Log codes; `null` selects informational entries without a code.",
      }),
      where: (v: string[]) => {
        const codes = v.filter((c) => c !== "null");
        const wantsNull = v.includes("null");
        if (codes.length === 0) return isNull(jobLogs.code);
        return wantsNull
          ? or(jsonIn(jobLogs.code, codes), isNull(jobLogs.code))
          : jsonIn(jobLogs.code, codes);
      },
    },
    severity: {
      schema: listParam(enumItem(["ERROR", "INFO", "WARNING"] as const), {
        itemType: "string",
        max: 3,
        description: "Severities.",
      }),
      where: (v: string[]) => jsonIn(jobLogs.severity, v),
    },
    ...dateRangeFilters("created_at", jobLogs.createdAt, "Written"),
  },
  sorts: { id: { column: jobLogs.id } },
  defaultSort: "id_asc",
});
