import { z } from "@hono/zod-openapi";

export const ProblemSchema = z
  .object({
    type: z.string().url(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().openapi({ description: "Stable machine-readable error code." }),
    request_id: z.string(),
    errors: z
      .array(
        z.object({
          location: z.enum(["query", "path", "body", "header"]),
          path: z.string(),
          message: z.string(),
        }),
      )
      .optional()
      .openapi({ description: "Every problem found, not just the first." }),
  })
  .openapi("Problem", {
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

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ProblemSchema } },
});

export const ERROR_RESPONSES = {
  400: problem("Invalid request: every problem is listed in `errors`."),
  401: problem("Missing, malformed, unknown or revoked API key."),
  403: problem("The API key lacks the scope this operation needs."),
  404: problem("Unknown resource, or a page beyond the last."),
  405: problem("Known path, other method; see the `Allow` header."),
  409: problem("Conflict with a uniqueness rule, or an idempotent request still in flight."),
  413: problem("Request body too large."),
  415: problem("Write body is not JSON."),
  422: problem("Idempotency-Key reused with a different body."),
  429: problem("Rate limit exceeded; see `Retry-After`."),
  500: problem("Unexpected error; quote `request_id` when reporting it."),
} as const;

export const PaginationSchema = z
  .object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
    next_page_url: z.string().url().optional(),
    previous_page_url: z.string().url().optional(),
  })
  .openapi("Pagination");

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ pagination: PaginationSchema, data: z.array(item) });
