import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { filterSchema } from "../../conventions/query-schema.ts";
import { countRowsRead, countTrip } from "../../db/client.ts";
import { rawBatch } from "../../db/raw.ts";
import type { AppEnv } from "../../env.ts";
import { defineRoute } from "../../http/route.ts";
import { accepted } from "../bulk/bulk.routes.ts";
import type { JobMessage } from "../bulk/types.ts";
import { EXPORT_FORMATS, type ExportFormat, type ExportOperation } from "./operation.ts";

/**
 * The body of an export: `filters` with the names and query-string values of the listed
 * resource's list (checked as the list checks them, every problem listed under `filters.<name>`),
 * and the file's `format`. The values are kept as sent: each message parses them again.
 */
function exportBody(op: ExportOperation) {
  const names = Object.keys(op.resource.filters ?? {});
  const list = `GET /api/v1${op.resource.path}`;
  const checked = filterSchema(op.resource);
  const filters = z
    .object(
      Object.fromEntries(
        names.map((name) => [
          name,
          z
            .string()
            .optional()
            .openapi({
              description: `As the \`${name}\` parameter of \`${list}\`, in its query-string form.`,
            }),
        ]),
      ),
    )
    .strict()
    .superRefine((values, ctx) => {
      const result = checked.safeParse(values);
      if (result.success) return;
      for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: "custom", path: issue.path });
    })
    .openapi({
      description: `The rows to export, by the filters of \`${list}\` (names and values as in a query string; different filters AND, the values of one OR). Absent: every row.`,
    });
  return z
    .object({
      filters: filters.optional(),
      format: z.enum(EXPORT_FORMATS).optional().openapi({
        description:
          "`jsonl` (default): one JSON record per line. `csv`: a header row and one record per row, in the layout the push CLI reads.",
      }),
    })
    .strict()
    .openapi({ example: op.bodyExample });
}

/** Mounts the route starting an export job (`read` scope: it reads the catalog and writes nothing of it). */
export function mountExportOperation(app: OpenAPIHono<AppEnv>, op: ExportOperation) {
  defineRoute(
    app,
    {
      method: "post",
      scope: "read",
      // Counted with the bulk requests: each starts a job.
      budget: "bulk",
      path: op.route.path,
      operationId: op.route.operationId,
      summary: op.summary,
      description: op.description,
      tags: [op.route.tag],
      body: exportBody(op),
      responses: accepted,
    },
    (c, { body }) => acceptExport(c, op, body.filters ?? {}, body.format ?? "jsonl"),
  );
}

/**
 * The `pending` job (its `chunk_count` is 1: the first message) and its export row, then the first
 * message; the answer is 202 as for a bulk job. If the message cannot be sent, the rows are taken
 * back and the error answers the request.
 */
async function acceptExport(
  c: Context<AppEnv>,
  op: ExportOperation,
  filters: Record<string, string | undefined>,
  format: ExportFormat,
) {
  const jobId = crypto.randomUUID();
  const d1 = c.get("db").$client;
  const params = { filters, format };
  countTrip(c);
  countRowsRead(
    c,
    await rawBatch(d1, [
      sql`INSERT INTO jobs (id, type, status, params, chunk_count, api_key_id)
          VALUES (${jobId}, ${op.type}, 'pending', ${JSON.stringify(params)}, 1, ${c.get("apiKey").id})`,
      sql`INSERT INTO job_exports (job_id, format) VALUES (${jobId}, ${format})`,
    ]),
  );
  try {
    const message: JobMessage = { jobId, chunk: 0 };
    await c.env.JOBS_QUEUE.send(message, { contentType: "json" });
  } catch (err) {
    countTrip(c);
    await rawBatch(d1, [
      sql`DELETE FROM job_exports WHERE job_id = ${jobId}`,
      sql`DELETE FROM jobs WHERE id = ${jobId}`,
    ]).catch(() => undefined);
    throw err;
  }
  return c.json([{ job_id: jobId, status: "pending" as const }], 202, {
    Location: `${new URL(c.req.url).origin}/api/v1/jobs/${jobId}`,
  });
}
