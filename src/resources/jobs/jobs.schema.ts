import { z } from "@hono/zod-openapi";
import { JOB_STATUSES, JOB_TYPES } from "../../db/schema/index.ts";

export const JobSchema = z
  .object({
    id: z.string().uuid(),
    type: z.enum(JOB_TYPES).optional(),
    status: z.enum(JOB_STATUSES).optional(),
    dry_run: z.boolean().optional().openapi({
      description:
        "True when the job was submitted with `options.dry_run`: its logs and summary are those of a real run, but nothing was applied and no webhook fired.",
    }),
    created_at: z.string().optional(),
    started_at: z.string().nullable().optional(),
    finished_at: z.string().nullable().optional(),
    summary: z
      .object({
        total_records: z.number().int(),
        processed_records: z.number().int(),
        succeeded_records: z.number().int(),
        failed_records: z.number().int(),
        log_info_count: z.number().int(),
        log_warning_count: z.number().int(),
        log_error_count: z.number().int(),
      })
      .optional(),
    writes: z
      .object({
        unchanged_records: z.number().int().openapi({
          description:
            "Succeeded records whose sent values all equal what was stored: they wrote no row and kept `updated_at`.",
        }),
        rows_written: z.number().int().openapi({
          description:
            "Rows D1 reports the job's catalog statements wrote, each index entry counted as a row (D1 bills rows written); the job's own bookkeeping (job row, ledger, logs) is not counted. A dry run reports what the same payload would write run for real at that moment.",
        }),
      })
      .optional()
      .openapi({
        description:
          "What the job wrote (non-default: `fields=writes`). Grows with each committed chunk while the job runs. A record that changes nothing costs no written row; a changed record writes only the rows and fields that differ.",
      }),
  })
  .openapi("Job", {
    description:
      "`pending` → `running` → `done` (every record succeeded), `done_with_errors` (some failed) or `failed` (none succeeded).",
  });

export const JobLogSchema = z
  .object({
    id: z.number().int(),
    created_at: z.string().optional(),
    severity: z.enum(["INFO", "WARNING", "ERROR"]).optional(),
    code: z.string().nullable().optional(),
    message: z.string().optional(),
    identifiers: z.record(z.string(), z.unknown()).nullable().optional(),
    affected_fields: z.array(z.string()).nullable().optional(),
  })
  .openapi("JobLogEntry");

/** A job's id in a path: a UUID, matched case-insensitively. */
export const jobIdParam = z.object({
  id: z
    .string()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a UUID")
    .transform((v) => v.toLowerCase())
    .openapi({ param: { name: "id", in: "path" }, example: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c" }),
});
