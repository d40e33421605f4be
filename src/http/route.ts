import { type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { idempotencyKeyIssue, runIdempotent } from "./idempotency.ts";
import { decodeJsonBody } from "./json-body.ts";
import type { ElementSink } from "./json-scan.ts";
import { ERROR_RESPONSES, successHeaders } from "./openapi-shared.ts";
import { isListParam } from "./params.ts";
import { type ProblemCode, type ProblemDetailItem, validationError } from "./problem.ts";
import type { CachePolicy, Scope } from "./route-table.ts";
import { type BodyLimit, routeTable } from "./route-table.ts";

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteDef<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  method: "get" | "post" | "patch" | "delete";
  /** Full OpenAPI-style path, e.g. `/api/v1/brands/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  scope: Scope | null;
  bodyLimit?: BodyLimit;
  budget?: "read" | "write" | "bulk";
  /** GET routes whose answers the edge cache may serve (src/edge/). */
  cache?: CachePolicy;
  params?: P;
  query?: Q;
  body?: B;
  /** Documented body when the accept-time schema is looser than the record shapes (bulk routes). */
  bodyDoc?: z.ZodType;
  /**
   * Bulk routes: the top-level array whose elements are not parsed at accept time; the body's value
   * at `key` is the sink, holding their byte ranges (src/http/json-body.ts).
   */
  bodyRecords?: { key: string; sink: () => ElementSink };
  responses: RouteConfig["responses"];
}

export interface RouteInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

type Issue = ProblemDetailItem & { code?: ProblemCode };

/**
 * Registers one operation: its OpenAPI entry (from the same zod schemas), its route-table entry
 * (404/405, scope, body limit), and a handler that receives the validated input. Path, query and
 * body are validated together so that one 400 lists every problem of the request.
 */
export function defineRoute<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodUndefined,
>(
  app: OpenAPIHono<AppEnv>,
  def: RouteDef<P, Q, B>,
  handler: (c: Context<AppEnv>, input: RouteInput<P, Q, B>) => Response | Promise<Response>,
) {
  const isWrite = def.method !== "get";
  routeTable.add({
    method: def.method.toUpperCase(),
    path: def.path,
    scope: def.scope,
    // A write without a declared body still answers 415 and 413 in the contract's order of checks.
    bodyLimit: def.bodyLimit ?? (def.body || isWrite ? "standard" : "none"),
    budget: def.budget ?? (def.scope === null ? null : isWrite ? "write" : "read"),
    ...(def.cache ? { cache: def.cache } : {}),
  });

  app.openAPIRegistry.registerPath({
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tags: def.tags,
    ...(def.scope
      ? {
          security: [{ bearerAuth: [] }],
          "x-required-scope": def.scope,
        }
      : {}),
    request: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { query: def.query } : {}),
      headers: requestHeaders(def.method),
      ...(def.body
        ? { body: { required: true, content: { "application/json": { schema: def.bodyDoc ?? def.body } } } }
        : {}),
    },
    responses: { ...withSuccessHeaders(def), ...errorResponsesFor(def) },
  });

  const honoPath = def.path.replace(/\{([^}]+)\}/g, ":$1");
  app.on(def.method.toUpperCase(), honoPath, async (c) => {
    const phases = c.get("phases");
    try {
      phases.enter("validate");
      const input = parseInput(c, def);
      // The handler's own work until its first D1 call is planning and building statements.
      phases.enter("query-build");
      const run = () => Promise.resolve(handler(c, input));
      return await (def.method === "post" ? runIdempotent(c, run) : run());
    } finally {
      phases.enter("other");
    }
  });
}

const IDEMPOTENCY_KEY = z.string().max(255).optional().openapi({
  description:
    "Makes a retried POST safe: the same key and body within 24 hours replays the first answer. While the first request is in flight a retry is 409 with `Retry-After: 1`; its claim is a 60-second lease, so if that request dies a retry after the lease takes the key over and does the work.",
});

const D1_BOOKMARK = z.string().max(200).optional().openapi({
  description:
    "A bookmark from an earlier answer's `x-d1-bookmark`: this request then reads data at least as fresh as that answer (read-your-writes). An unusable one falls back to the primary database.",
});

const IF_NONE_MATCH = z.string().optional().openapi({
  description: "An `ETag` from an earlier answer: 304 without a body while the answer is unchanged.",
});

/** Request headers every operation takes: the D1 bookmark; a GET's `If-None-Match`; a POST's `Idempotency-Key`. */
function requestHeaders(method: RouteDef<AnyObject, AnyObject, z.ZodType>["method"]) {
  return z.object({
    ...(method === "get" ? { "if-none-match": IF_NONE_MATCH } : {}),
    ...(method === "post" ? { "idempotency-key": IDEMPOTENCY_KEY } : {}),
    "x-d1-bookmark": D1_BOOKMARK,
  });
}

/** The operation's own responses with the headers they carry, and a GET's 304. */
function withSuccessHeaders(def: RouteDef<AnyObject, AnyObject, z.ZodType>): RouteConfig["responses"] {
  const responses: RouteConfig["responses"] = {};
  for (const [status, response] of Object.entries(def.responses)) {
    const code = Number(status);
    responses[status] =
      "$ref" in response || code >= 400
        ? response
        : { ...response, headers: { ...successHeaders(def.method, code), ...response.headers } };
  }
  if (def.method === "get") {
    responses[304] ??= { description: "Not modified: the `If-None-Match` tag still matches." };
    responses[304] = { ...responses[304], headers: successHeaders("get", 304) };
  }
  return responses;
}

function errorResponsesFor(def: RouteDef<AnyObject, AnyObject, z.ZodType>) {
  const codes: (keyof typeof ERROR_RESPONSES)[] = [400, 404, 405, 500];
  if (def.scope) codes.push(401, 403, 429);
  if (def.body) codes.push(409);
  if (def.method !== "get") codes.push(413, 415);
  if (def.method === "post") codes.push(409, 422);
  return Object.fromEntries(codes.map((code) => [code, ERROR_RESPONSES[code]]));
}

/** The body a write without a declared one accepts when it sends any: `{}`. */
const NO_BODY = z.object({}).strict();

function parseInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(
  c: Context<AppEnv>,
  def: RouteDef<P, Q, B>,
): RouteInput<P, Q, B> {
  const issues: Issue[] = [];
  const params = def.params ? collect(def.params, c.req.param(), "path", issues) : {};
  const query = def.query ? collect(def.query, rawQuery(c, def.query, issues), "query", issues) : {};
  if (def.method === "post") {
    const headerIssue = idempotencyKeyIssue(c.req.header("idempotency-key"));
    if (headerIssue) issues.push(headerIssue);
  }
  let body: unknown;
  const raw = c.get("rawBody") ?? new Uint8Array();
  // A write that declares no body takes none, or an empty JSON object; anything else is listed.
  const schema = def.body ?? (def.method !== "get" && raw.length > 0 ? NO_BODY : undefined);
  if (schema) {
    const records = def.bodyRecords && { key: def.bodyRecords.key, sink: def.bodyRecords.sink() };
    const decoded = decodeJsonBody(raw, records);
    if (decoded.ok) body = collect(schema, decoded.value, "body", issues);
    else for (const problem of decoded.problems) issues.push({ location: "body", ...problem });
    if (!def.body) body = undefined;
  }
  if (issues.length > 0) throw validationError(issues);
  return { params, query, body } as RouteInput<P, Q, B>;
}

/** Query as `name → raw string`: repeats of list parameters joined with ",", other repeats refused. */
function rawQuery(c: Context<AppEnv>, schema: AnyObject, issues: Issue[]) {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    const field = schema.shape[name] as z.ZodType | undefined;
    if (values.length > 1 && field && !isListParam(unwrapOptional(field))) {
      issues.push({ location: "query", path: name, message: "must not be repeated" });
      continue;
    }
    out[name] = values.join(",");
  }
  return out;
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

function collect(
  schema: z.ZodType,
  value: unknown,
  location: ProblemDetailItem["location"],
  issues: Issue[],
) {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({
          location,
          path: path ? `${path}.${key}` : key,
          message: location === "query" ? "unknown parameter" : "unknown field",
          code: location === "query" ? "unknown_parameter" : undefined,
        });
      }
      continue;
    }
    const params = (issue as { params?: { problemCode?: ProblemCode } }).params;
    issues.push({ location, path, message: issue.message, code: params?.problemCode });
  }
  return undefined;
}

/** A path parameter holding a row's positive integer id. */
export const positiveIdPathParam = (name: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ type: "integer", param: { name, in: "path" }, example: 1 });

export const pathId = z.object({ id: positiveIdPathParam("id") });
