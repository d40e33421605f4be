import type { ContentfulStatusCode } from "hono/utils/http-status";

type ErrorLocation = "query" | "path" | "body" | "header";

export interface ProblemDetailItem {
  location: ErrorLocation;
  path: string;
  message: string;
}

/** Every problem code, with its HTTP status. */
const STATUS = {
  invalid_parameter: 400,
  unknown_parameter: 400,
  invalid_body: 400,
  unsupported_locale: 400,
  image_unavailable: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  page_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  cursor_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ProblemCode = keyof typeof STATUS;

const VALIDATION = { title: "Invalid request", type: "validation" };

/** Where a problem's title is not its code in words, or its type not its code in kebab-case. */
const NAMED: Partial<Record<ProblemCode, { title?: string; type?: string }>> = {
  invalid_parameter: VALIDATION,
  unknown_parameter: VALIDATION,
  invalid_body: VALIDATION,
  rate_limited: { title: "Too many requests" },
  internal: { title: "Internal server error" },
};

const titleOf = (code: ProblemCode) => {
  const words = code.replaceAll("_", " ");
  return NAMED[code]?.title ?? words.charAt(0).toUpperCase() + words.slice(1);
};
const typeOf = (code: ProblemCode) => NAMED[code]?.type ?? code.replaceAll("_", "-");

const PROBLEM_TYPE_BASE = "https://storefront.dev/problems/";

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
    this.status = STATUS[code];
    this.headers = headers;
  }

  toProblem(requestId: string) {
    return {
      type: PROBLEM_TYPE_BASE + typeOf(this.code),
      title: titleOf(this.code),
      status: this.status,
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
