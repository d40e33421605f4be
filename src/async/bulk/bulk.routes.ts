import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env.ts";
import { LOCATION_HEADER } from "../../http/openapi-shared.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { acceptBulkJob } from "./accept.ts";
import { ChunkPlanner } from "./chunking.ts";
import { dryRunOption } from "./dry-run.ts";
import type { BulkOperation } from "./operation.ts";

const Accepted = z
  .array(z.object({ job_id: z.string().uuid(), status: z.literal("pending") }))
  .openapi("JobAccepted", {
    example: [{ job_id: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c", status: "pending" }],
  });

/** The 202 answer of a route that starts a job. */
export const accepted = {
  202: {
    description: "Accepted and queued; read the outcome from the job and its logs.",
    headers: LOCATION_HEADER,
    content: { "application/json": { schema: Accepted } },
  },
};

const bulkRoute = {
  method: "post" as const,
  scope: "write" as const,
  bodyLimit: "bulk" as const,
  budget: "bulk" as const,
};

/**
 * The records array of a bulk body, checked at accept time without parsing a record: the body
 * decoder hands its elements to a ChunkPlanner by byte range (src/http/json-body.ts), and this
 * schema checks only what acceptance needs: non-empty, every element an object.
 */
const recordsArray = () =>
  z
    .custom<ChunkPlanner>((value) => value instanceof ChunkPlanner, {
      message: "must be an array of objects",
    })
    .superRefine((planner, ctx) => {
      if (planner.total === 0) ctx.addIssue({ code: "custom", message: "must not be empty" });
      for (const index of planner.nonObjects) {
        ctx.addIssue({ code: "custom", path: [index], message: "must be an object" });
      }
      const unlisted = planner.nonObjectCount - planner.nonObjects.length;
      if (unlisted > 0)
        ctx.addIssue({ code: "custom", message: `${unlisted} more elements are not objects` });
    });

/**
 * The operation's own `options` plus those of every bulk operation (`dry_run`); optional when the
 * operation has none of its own.
 */
function optionsOf(op: BulkOperation, strict: boolean) {
  const options = (op.options ?? z.object({})).extend(dryRunOption);
  const checked = strict ? options.strict() : options;
  return op.options ? checked : checked.optional();
}

/**
 * Accept-time checks only: a JSON object, the records array, a fully valid `options`, no unknown
 * top-level keys. Everything inside a record is checked later by the job.
 */
const acceptedBody = (op: BulkOperation) =>
  z.object({ [op.itemsKey]: recordsArray(), options: optionsOf(op, true) }).strict();

/** The documented body: the record shape the job validates each record with. */
const documentedBody = (op: BulkOperation) =>
  z
    .object({ [op.itemsKey]: z.array(op.record).min(1), options: optionsOf(op, false) })
    .openapi({ example: op.bodyExample });

/** The ChunkPlanner the body decoder left at the records key (the body schema already checked it). */
function recordsOf(body: Record<string, unknown>, key: string): ChunkPlanner {
  const records = body[key];
  if (!(records instanceof ChunkPlanner)) throw new Error(`the bulk body has no records at "${key}"`);
  return records;
}

/** Mounts every route of one bulk operation, in the order of its `routes`. */
export function mountBulkOperation(app: OpenAPIHono<AppEnv>, op: BulkOperation) {
  const body = acceptedBody(op);
  const bodyDoc = documentedBody(op);
  const accept = (c: Context<AppEnv>, sent: Record<string, unknown>, scope: Record<string, unknown>) =>
    acceptBulkJob(c, op.type, recordsOf(sent, op.itemsKey), {
      ...(sent.options !== undefined ? { options: sent.options } : {}),
      ...scope,
    });
  for (const route of op.routes) {
    const def = {
      ...bulkRoute,
      bodyRecords: { key: op.itemsKey, sink: () => new ChunkPlanner() },
      path: route.path,
      operationId: route.operationId,
      summary: op.summary,
      description: op.description,
      tags: [route.tag],
      body,
      bodyDoc,
      responses: accepted,
    };
    const { guard } = op;
    if (guard) {
      defineRoute(app, { ...def, params: pathId }, async (c, { params, body }) =>
        accept(c, body, await guard(c, params.id)),
      );
    } else {
      defineRoute(app, def, (c, { body }) => accept(c, body, {}));
    }
  }
}
