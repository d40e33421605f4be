import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { closeJob } from "../../async/bulk/finalize.ts";
import { exportResult } from "../../async/exports/result.ts";
import { getResource } from "../../conventions/engine.ts";
import { conventionQuerySchema } from "../../conventions/query-schema.ts";
import type { AnyResource } from "../../conventions/resource.ts";
import type { MountRoute } from "../../conventions/routes.ts";
import { batch, countTrip } from "../../db/client.ts";
import { jobs } from "../../db/schema/index.ts";
import { ERROR_RESPONSES } from "../../http/openapi-shared.ts";
import { ApiError, notFound } from "../../http/problem.ts";
import { defineRoute } from "../../http/route.ts";
import { onJobFinalized } from "../webhooks/job-finalized.ts";
import { jobIdParam } from "./jobs.schema.ts";

/** What a route on one job has: `/api/v1/jobs/{id}/<action>`, the job id, the jobs tag. */
const onJob = <M extends "get" | "post">(resource: AnyResource, method: M, action: string) => ({
  method,
  path: `/api/v1${resource.path}/{id}/${action}`,
  tags: [resource.tag],
  params: jobIdParam,
});

const cancelJob: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      ...onJob(resource, "post", "cancel"),
      operationId: "cancelJob",
      summary: "Cancel a job",
      description:
        "Stops a `pending` or `running` job: it ends at once, before any chunk not yet committed (a chunk in flight is not applied). Records not processed count as failed, with one `OTHER` log entry saying the job was canceled; the final status follows the usual rule (`failed` when no record succeeded, else `done_with_errors`) and subscribed webhooks fire as for any final state. A job already final is 409.",
      scope: "write",
      query: conventionQuerySchema(resource, "single"),
      responses: {
        202: {
          description: "The job, now final",
          content: { "application/json": { schema: resource.item } },
        },
      },
    },
    async (c, { params, query }) => {
      const db = c.get("db");
      const [rows] = await batch(c, [
        db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, params.id)),
      ]);
      const status = rows[0]?.status;
      if (!status) throw notFound("Job");
      if (status === "pending" || status === "running") {
        countTrip(c);
        if (await closeJob(c.env, db, params.id, "The job was canceled.", onJobFinalized)) {
          return c.json(await getResource(c, resource, params.id, query), 202);
        }
      }
      throw new ApiError(
        "conflict",
        "Only a pending or running job can be canceled; this job is already final",
        [{ location: "path", path: "id", message: "the job is already final" }],
      );
    },
  );

const fileHeaders = {
  "Content-Disposition": {
    description: '`attachment; filename="<job type>-<job id>.<jsonl|csv>"`.',
    schema: { type: "string" as const },
  },
  "Content-Encoding": {
    description:
      "`gzip` when the request's `Accept-Encoding` takes it: the file is stored gzip-compressed and sent as stored (without gzip it is decompressed as it streams).",
    schema: { type: "string" as const },
  },
};

const jobResult: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      ...onJob(resource, "get", "result"),
      operationId: "getJobResult",
      summary: "Download the file of an export job",
      description:
        "Streams the file an export job (`products_export`, `variants_export`) wrote, once the job is final: JSONL (`application/x-ndjson`, one record per line) or CSV (`text/csv`, a header row, then one record per row), as an attachment, gzip-compressed when `Accept-Encoding` allows. 409 while the job is `pending` or `running`; 404 for a job that has no file (not an export, or an export canceled before its file was complete). The file goes with the job (retention).",
      scope: "read",
      responses: {
        200: {
          description: "The file",
          headers: fileHeaders,
          content: {
            "application/x-ndjson": {
              schema: z.string().openapi({
                example:
                  '{"id":1,"internal_id":"PRD-000001","status":"published","category_ids":[4,2],"variants":[{"id":1,"sku":"TSH-00001-BLK","warehouse_stock":40}]}\n',
              }),
            },
            "text/csv; charset=utf-8": {
              schema: z.string().openapi({
                example: "id,internal_id,sku,warehouse_stock\r\n1,VAR-0000001,TSH-00001-BLK,40\r\n",
              }),
            },
          },
        },
        409: ERROR_RESPONSES[409],
      },
    },
    (c, { params }) => exportResult(c, params.id),
  );

export const jobRoutes: MountRoute[] = [cancelJob, jobResult];
