import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ProblemCode } from "./problem.ts";

/** Every problem `code` with what it means; `satisfies` keeps it in step with `ProblemCode`. */
const PROBLEM_CODES = {
  invalid_parameter: "A path or query parameter has a bad value (or a required one is missing).",
  unknown_parameter: "The query names a parameter the operation does not accept.",
  invalid_body: "The request body is not valid JSON or breaks the operation's body schema.",
  unsupported_locale: "A locale outside the supported list, or not enabled for the store.",
  image_unavailable: "An `image_url` could not be downloaded, or is not a supported image.",
  unauthorized: "Missing, malformed, unknown or revoked API key.",
  forbidden: "The API key lacks the scope the operation needs.",
  not_found: "Unknown path, resource or parent resource.",
  page_not_found: "`page` is beyond the last page.",
  method_not_allowed: "Known path, other method.",
  conflict: "A uniqueness rule would break, or the same Idempotency-Key is still in flight.",
  cursor_expired: "A change feed cursor older than the feed's retention (at least 7 days).",
  payload_too_large: "The body exceeds 1 MiB (10 MiB for bulk operations).",
  unsupported_media_type: "A write body whose Content-Type is not JSON.",
  idempotency_key_reused: "The Idempotency-Key was used before with a different body.",
  rate_limited: "The API key's rate limit for this kind of request is spent.",
  internal: "Unexpected error; nothing about it is leaked.",
  service_unavailable: "A store the service depends on (D1 or R2) did not answer (the health check).",
} satisfies Record<ProblemCode, string>;

const codeList = Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

const ProblemSchema = z
  .object({
    type: z.url().openapi({ description: "URI identifying the problem type." }),
    title: z.string().openapi({ description: "Short summary of the problem type." }),
    status: z.number().int().min(400).max(599).openapi({ description: "The HTTP status code." }),
    detail: z.string().openapi({ description: "What went wrong in this request." }),
    code: z.enum(codeList).openapi({
      description: `Stable machine-readable error code:\n\n${codeList
        .map((code) => `- \`${code}\`: ${PROBLEM_CODES[code]}`)
        .join("\n")}`,
    }),
    request_id: z.uuid().openapi({ description: "Also in the `X-Request-Id` header; quote it in reports." }),
    errors: z
      .array(
        z.object({
          location: z.enum(["query", "path", "body", "header"]),
          path: z.string().openapi({
            description: "Parameter name, or dotted path inside the body (empty for the body itself).",
          }),
          message: z.string(),
        }),
      )
      .optional()
      .openapi({ description: "Every problem found, not just the first (validation errors)." }),
  })
  .openapi("Problem", {
    description: "RFC 9457 problem details, sent as `application/problem+json` with every 4xx and 5xx.",
    example: {
      type: "https://storefront.dev/problems/validation",
      title: "Invalid request",
      status: 400,
      detail: "per_page: must be <= 100",
      code: "invalid_parameter",
      request_id: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c",
      errors: [{ location: "query", path: "per_page", message: "must be <= 100" }],
    },
  });

const HEADERS = {
  "X-Request-Id": "Unique id of this request (every response); the same value as a problem's `request_id`.",
  "WWW-Authenticate": 'Always `Bearer realm="storefront"`.',
  Allow: "The methods the path accepts.",
  "Retry-After": "Seconds to wait before retrying.",
  "Server-Timing":
    'Time spent in the service, its D1 round trips and the rows they read and wrote (what D1 bills: `d1-rows`, and `d1-rows-written` with each index entry counted), then the ms of each phase the request went through (`validate`, `query-build`, `d1-wait`, `map`, `render`, `json`, `etag`, `other`), e.g. `app;dur=12, d1;desc="round trips";dur=2, d1-rows;desc="rows read";dur=51, d1-rows-written;desc="rows written";dur=0, validate;dur=0.041, …, other;dur=0.090`. A deployed Worker\'s clock advances only at I/O, so there the phases other than `d1-wait` read about 0. Last, what the edge cache did (`cache;desc="hit"`, `"miss"`, `"bypass"` or `"request"`) and, when it read its generations from D1, `cache-d1;desc="generation reads";dur=1`; a miss reports the D1 work of computing the answer, a hit none.',
  "x-d1-bookmark":
    "D1 session bookmark, when the request used the database: send it back as `x-d1-bookmark` to read data at least as fresh as this answer.",
  ETag: "Weak entity tag of the body: send it as `If-None-Match` to get 304 while it is unchanged.",
  Location: "URL of the created resource (for a bulk operation: its job).",
  "Idempotency-Replayed":
    "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.",
  "Cache-Status":
    "What the edge cache did ([RFC 9211](https://www.rfc-editor.org/rfc/rfc9211), cache `storefront`): `storefront; hit` (served from the cache), `storefront; fwd=miss` (computed now and stored when it may be), `storefront; fwd=bypass` (not a cached operation, or the cache is off) or `storefront; fwd=request` (the request sent `x-d1-bookmark` or `Cache-Control: no-cache`). On every `/api/v1` answer.",
  "Cache-Control":
    "`private, no-cache` on a catalog read (keep it, but revalidate with `If-None-Match` before reuse); `no-store` on everything else (orders, contacts, jobs, webhooks, health, writes, errors).",
  Age: "Seconds since the edge cache stored this answer (hits only).",
} as const;

type HeaderName = keyof typeof HEADERS;

/** Each error status as a reusable response component, with the headers it carries. */
const ERRORS = {
  400: { name: "BadRequest", description: "Invalid request: every problem is listed in `errors`." },
  401: {
    name: "Unauthorized",
    description: "Missing, malformed, unknown or revoked API key.",
    headers: ["WWW-Authenticate"],
  },
  403: { name: "Forbidden", description: "The API key lacks the scope this operation needs." },
  404: { name: "NotFound", description: "Unknown path or resource, or a page beyond the last." },
  405: {
    name: "MethodNotAllowed",
    description: "Known path, other method; see the `Allow` header.",
    headers: ["Allow"],
  },
  409: {
    name: "Conflict",
    description:
      "A uniqueness rule would break, or a request with the same Idempotency-Key is still in flight (then with `Retry-After`).",
    headers: ["Retry-After"],
  },
  410: {
    name: "CursorExpired",
    description:
      "The change feed cursor is older than the feed's retention (at least 7 days): start again without `after` after a full sync.",
  },
  413: {
    name: "PayloadTooLarge",
    description: "Request body too large (1 MiB; 10 MiB for bulk operations).",
  },
  415: { name: "UnsupportedMediaType", description: "Write body is not JSON." },
  422: { name: "IdempotencyKeyReused", description: "Idempotency-Key reused with a different body." },
  429: {
    name: "TooManyRequests",
    description: "Rate limit exceeded; see `Retry-After`.",
    headers: ["Retry-After"],
  },
  500: { name: "InternalError", description: "Unexpected error; quote `request_id` when reporting it." },
  503: {
    name: "ServiceUnavailable",
    description:
      "D1 or R2 did not answer. From the health check, the problem also carries `version`, `public_origin` and `checks` (as its 200 answer does).",
  },
} as const satisfies Record<number, { name: string; description: string; headers?: readonly HeaderName[] }>;

type ErrorStatus = keyof typeof ERRORS;

const ref = (kind: "responses" | "headers" | "schemas", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Error responses by status, as references to the components `registerOpenApiComponents` adds. */
export const ERROR_RESPONSES = Object.fromEntries(
  Object.entries(ERRORS).map(([status, e]) => [status, ref("responses", e.name)]),
) as Record<ErrorStatus, { $ref: string }>;

/**
 * The headers every successful answer carries, as references: request id, timing, D1 bookmark and
 * what the edge cache did; a GET's `ETag` (and `Age` on a hit); a POST's `Idempotency-Replayed`. An answer that creates adds `LOCATION_HEADER`.
 */
export function successHeaders(method: string, status: number) {
  const names: HeaderName[] = [
    "X-Request-Id",
    "Server-Timing",
    "x-d1-bookmark",
    "Cache-Status",
    "Cache-Control",
  ];
  if (method === "get" && status === 200) names.push("ETag", "Age");
  if (method === "post") names.push("Idempotency-Replayed");
  return Object.fromEntries(names.map((h) => [h, ref("headers", h)]));
}

/** The `headers` of an answer that creates something: where it is. */
export const LOCATION_HEADER = { Location: ref("headers", "Location") };

/** Shared components: the Problem schema, common headers and one response per error status. */
export function registerOpenApiComponents(registry: OpenAPIHono["openAPIRegistry"]) {
  registry.register("Problem", ProblemSchema);
  for (const [name, description] of Object.entries(HEADERS)) {
    const schema =
      name === "Retry-After"
        ? { type: "integer" as const }
        : name === "Idempotency-Replayed"
          ? { type: "string" as const, enum: ["true"] }
          : name === "Location"
            ? { type: "string" as const, format: "uri" }
            : { type: "string" as const };
    registry.registerComponent("headers", name, { description, schema });
  }
  for (const e of Object.values(ERRORS)) {
    const extra: readonly HeaderName[] = "headers" in e ? e.headers : [];
    registry.registerComponent("responses", e.name, {
      description: e.description,
      headers: Object.fromEntries(
        (["X-Request-Id", "Cache-Status", "Cache-Control", ...extra] as HeaderName[]).map((h) => [
          h,
          ref("headers", h),
        ]),
      ),
      content: { "application/problem+json": { schema: ref("schemas", "Problem") } },
    });
  }
}

const PaginationSchema = z
  .object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
    next_page_url: z.url().optional().openapi({ description: "Absent on the last page." }),
    previous_page_url: z.url().optional().openapi({ description: "Absent on the first page." }),
  })
  .openapi("Pagination");

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ pagination: PaginationSchema, data: z.array(item) });
