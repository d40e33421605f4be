import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { closeJob } from "../../async/bulk-jobs/finalize.ts";
import { getResource } from "../../conventions/engine.ts";
import { type ConventionQuery, conventionQuerySchema } from "../../conventions/query-schema.ts";
import { mountList, mountSubList } from "../../conventions/routes.ts";
import { batch, countTrip } from "../../db/client.ts";
import { jobs } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { ApiError, notFound } from "../../http/problem.ts";
import { defineRoute } from "../../http/route.ts";
import { jobIdEquals, jobLogResource, jobResource } from "./jobs.resource.ts";
import { JobLogSchema, JobSchema } from "./jobs.schema.ts";

const jobIdParam = z.object({
  id: z
    .string()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a UUID")
    .transform((v) => v.toLowerCase())
    .openapi({ param: { name: "id", in: "path" }, example: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c" }),
});

export function registerJobs(app: OpenAPIHono<AppEnv>) {
  mountList(app, jobResource, {
    path: "/jobs",
    tag: "Jobs",
    item: JobSchema,
    plural: "Jobs",
    singular: "Job",
  });

  defineRoute(
    app,
    {
      method: "get",
      path: "/api/v1/jobs/{id}",
      operationId: "getJob",
      summary: "Get a job",
      tags: ["Jobs"],
      scope: "read",
      params: jobIdParam,
      query: conventionQuerySchema(jobResource, "single"),
      responses: { 200: { description: "The job", content: { "application/json": { schema: JobSchema } } } },
    },
    async (c, { params, query }) =>
      c.json(await getResource(c, jobResource, params.id, query as ConventionQuery)),
  );

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/jobs/{id}/cancel",
      operationId: "cancelJob",
      summary: "Cancel a job",
      description:
        "Stops a `pending` or `running` job: it ends at once, before any chunk not yet committed (a chunk in flight is not applied). Records not processed count as failed, with one `OTHER` log entry saying the job was canceled; the final status follows the usual rule (`failed` when no record succeeded, else `done_with_errors`) and subscribed webhooks fire as for any final state. A job already final is 409.",
      tags: ["Jobs"],
      scope: "write",
      params: jobIdParam,
      query: conventionQuerySchema(jobResource, "single"),
      responses: {
        202: { description: "The job, now final", content: { "application/json": { schema: JobSchema } } },
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
        if (await closeJob(c.env, db, params.id, "The job was canceled.")) {
          return c.json(await getResource(c, jobResource, params.id, query as ConventionQuery), 202);
        }
      }
      throw new ApiError(
        "conflict",
        "Only a pending or running job can be canceled; this job is already final",
        [{ location: "path", path: "id", message: "the job is already final" }],
      );
    },
  );

  mountSubList(app, jobLogResource, {
    path: "/jobs/{id}/logs",
    params: jobIdParam,
    param: "id",
    operationId: "listJobLogs",
    summary: "List the log entries of a job",
    description: "Processing information, record errors with their identifiers, and a final INFO summary.",
    tag: "Jobs",
    item: JobLogSchema,
    parent: { label: "Job", table: jobs, idColumn: jobs.id },
    belongsTo: (id) => jobIdEquals(id as string),
  });
}
