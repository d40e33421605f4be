import { eq } from "drizzle-orm";
import { closeJob } from "../../async/bulk/finalize.ts";
import { getResource } from "../../conventions/engine.ts";
import { conventionQuerySchema } from "../../conventions/query-schema.ts";
import type { MountRoute } from "../../conventions/routes.ts";
import { batch, countTrip } from "../../db/client.ts";
import { jobs } from "../../db/schema/index.ts";
import { ApiError, notFound } from "../../http/problem.ts";
import { defineRoute } from "../../http/route.ts";
import { onJobFinalized } from "../webhooks/job-finalized.ts";
import { jobIdParam } from "./jobs.schema.ts";

const cancelJob: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      method: "post",
      path: `/api/v1${resource.path}/{id}/cancel`,
      operationId: "cancelJob",
      summary: "Cancel a job",
      description:
        "Stops a `pending` or `running` job: it ends at once, before any chunk not yet committed (a chunk in flight is not applied). Records not processed count as failed, with one `OTHER` log entry saying the job was canceled; the final status follows the usual rule (`failed` when no record succeeded, else `done_with_errors`) and subscribed webhooks fire as for any final state. A job already final is 409.",
      tags: [resource.tag],
      scope: "write",
      params: jobIdParam,
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

export const jobRoutes: MountRoute[] = [cancelJob];
