import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ProblemCode =
  | "invalid_parameter"
  | "unknown_parameter"
  | "invalid_body"
  | "unsupported_locale"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "page_not_found"
  | "method_not_allowed"
  | "conflict"
  | "idempotency_key_reused"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "image_unavailable"
  | "service_unavailable"
  | "internal";

export type ErrorLocation = "query" | "path" | "body" | "header";

export interface ProblemDetailItem {
  location: ErrorLocation;
  path: string;
  message: string;
}

const REGISTRY: Record<ProblemCode, { status: ContentfulStatusCode; title: string; type: string }> = {
  invalid_parameter: { status: 400, title: "Invalid request", type: "validation" },
  unknown_parameter: { status: 400, title: "Invalid request", type: "validation" },
  invalid_body: { status: 400, title: "Invalid request", type: "validation" },
  unsupported_locale: { status: 400, title: "Unsupported locale", type: "unsupported-locale" },
  image_unavailable: { status: 400, title: "Image unavailable", type: "image-unavailable" },
  unauthorized: { status: 401, title: "Unauthorized", type: "unauthorized" },
  forbidden: { status: 403, title: "Forbidden", type: "forbidden" },
  not_found: { status: 404, title: "Not found", type: "not-found" },
  page_not_found: { status: 404, title: "Page not found", type: "page-not-found" },
  method_not_allowed: { status: 405, title: "Method not allowed", type: "method-not-allowed" },
  conflict: { status: 409, title: "Conflict", type: "conflict" },
  payload_too_large: { status: 413, title: "Payload too large", type: "payload-too-large" },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    type: "unsupported-media-type",
  },
  idempotency_key_reused: {
    status: 422,
    title: "Idempotency key reused",
    type: "idempotency-key-reused",
  },
  rate_limited: { status: 429, title: "Too many requests", type: "rate-limited" },
  internal: { status: 500, title: "Internal server error", type: "internal" },
  service_unavailable: { status: 503, title: "Service unavailable", type: "service-unavailable" },
};

export const PROBLEM_TYPE_BASE = "https://storefront.dev/problems/";

export const problemStatus = (code: ProblemCode) => REGISTRY[code].status;

/** The one error type of the service; rendered as RFC 9457 problem JSON by the app's error handler. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors: ProblemDetailItem[] = [],
    headers: Record<string, string> = {},
    /** RFC 9457 extension members, added after the standard ones (e.g. the health check's `checks`). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
    this.status = REGISTRY[code].status;
    this.headers = headers;
  }

  toProblem(requestId: string) {
    const entry = REGISTRY[this.code];
    return {
      type: PROBLEM_TYPE_BASE + entry.type,
      title: entry.title,
      status: entry.status,
      detail: this.detail,
      code: this.code,
      request_id: requestId,
      ...(this.errors.length > 0 ? { errors: this.errors } : {}),
      ...this.extensions,
    };
  }
}

export const notFound = (what: string) => new ApiError("not_found", `${what} not found`);

/**
 * At most this many problems are listed in `errors` (a 10 MB body can hold millions); `detail`
 * gives the total.
 */
export const MAX_LISTED_PROBLEMS = 1000;

/** Picks the problem code for a set of validation problems: the most specific wins. */
export function validationError(items: (ProblemDetailItem & { code?: ProblemCode })[]): ApiError {
  const codes = new Set(items.map((i) => i.code));
  const code: ProblemCode = codes.has("unsupported_locale")
    ? "unsupported_locale"
    : codes.has("unknown_parameter")
      ? "unknown_parameter"
      : items.some((i) => i.location === "body")
        ? "invalid_body"
        : "invalid_parameter";
  const first = items[0];
  const detail =
    items.length === 1 && first
      ? `${first.path ? `${first.path}: ` : ""}${first.message}`
      : items.length > MAX_LISTED_PROBLEMS
        ? `${items.length} problems found in the request; the first ${MAX_LISTED_PROBLEMS} are listed`
        : `${items.length} problems found in the request`;
  return new ApiError(
    code,
    detail,
    items.slice(0, MAX_LISTED_PROBLEMS).map(({ location, path, message }) => ({ location, path, message })),
  );
}
