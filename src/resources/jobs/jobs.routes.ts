import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { getResource } from "../../conventions/engine.ts";
import { type ConventionQuery, conventionQuerySchema } from "../../conventions/query-schema.ts";
import { mountList, mountSubList } from "../../conventions/routes.ts";
import { jobs } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
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
