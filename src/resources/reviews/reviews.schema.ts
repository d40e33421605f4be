import { z } from "@hono/zod-openapi";
import { nameText, positiveId, text } from "../../conventions/write/field-rules.ts";
import { PUBLICATION_STATUSES, REVIEW_TYPES } from "../../db/schema/index.ts";
import { toBoundIso } from "../../http/params.ts";
import { isSupportedLocale, SUPPORTED_LOCALES } from "../../lib/locales.ts";

export const ReviewSchema = z
  .object({
    id: z.number().int(),
    locale: z.string().optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    rating: z.number().int().min(1).max(5).nullable().optional(),
    created_at: z.string().optional().openapi({ format: "date-time", example: "2026-03-14T10:21:07Z" }),
    type: z.enum(REVIEW_TYPES).optional(),
    content: z.string().optional(),
    reviewer_name: z.string().nullable().optional(),
    reviewer_email: z.string().optional(),
    order_id: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: "A review tied to an order counts as verified." }),
    customer_id: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: "The reviewer's contact id." }),
    product_id: z.number().int().nullable().optional().openapi({ description: "Product reviews only." }),
    variant_id: z.number().int().nullable().optional().openapi({ description: "Product reviews only." }),
  })
  .openapi("Review", {
    example: {
      id: 12,
      locale: "es-ES",
      status: "published",
      rating: 5,
      created_at: "2026-03-14T10:21:07Z",
      type: "product",
    },
  });

const localeText = () =>
  z
    .string()
    .superRefine((raw, ctx) => {
      if (!isSupportedLocale(raw)) {
        ctx.addIssue({
          code: "custom",
          message: `is not a supported locale (${SUPPORTED_LOCALES.join(", ")})`,
          params: { problemCode: "unsupported_locale" },
        });
      }
    })
    .openapi({ enum: [...SUPPORTED_LOCALES], description: "Supported and enabled for the store." });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An instant with `Z` or an offset, stored as whole-second UTC (`2026-03-14T10:21:07Z`). */
const instant = () =>
  z
    .string()
    .transform((raw, ctx) => {
      const iso = DATE_ONLY.test(raw) ? null : toBoundIso(raw, "to");
      if (iso === null) {
        ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date-time with Z or an offset" });
        return z.NEVER;
      }
      return iso;
    })
    .openapi({ type: "string", format: "date-time", example: "2026-03-14T10:21:07Z" });

const email = () => z.email("must be an e-mail address").max(255, "must be at most 255 characters");
const content = () => text(10_000).min(1, "must not be empty");
const rating = () =>
  z.number().int("must be an integer").min(1, "must be between 1 and 5").max(5, "must be between 1 and 5");

export interface ReviewState {
  type?: unknown;
  product_id?: unknown;
  variant_id?: unknown;
}

/**
 * `type` vs `product_id`/`variant_id`: product reviews need a product, store reviews take neither.
 * Checked on the body at create and on current row + patch at update.
 */
export function crossFieldProblems(state: ReviewState): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (state.type === "product" && (state.product_id === undefined || state.product_id === null)) {
    out.push({ path: "product_id", message: "is required for product reviews" });
  }
  if (state.type === "store") {
    for (const path of ["product_id", "variant_id"] as const) {
      if (state[path] !== undefined && state[path] !== null)
        out.push({ path, message: "must be null for store reviews" });
    }
  }
  return out;
}

const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

export const ReviewCreateSchema = z
  .object({
    locale: localeText(),
    content: content(),
    reviewer_email: email(),
    type: z.enum(REVIEW_TYPES),
    status: z.enum(PUBLICATION_STATUSES).default("unpublished"),
    rating: rating().nullable().optional().openapi({ description: "null (no rating) when not sent." }),
    created_at: instant().optional().openapi({ description: "Default: now." }),
    reviewer_name: nameText().nullable().optional(),
    order_id: positiveId().nullable().optional(),
    customer_id: positiveId().nullable().optional().openapi({ description: "A contact id." }),
    product_id: positiveId().nullable().optional().openapi({ description: "Required for product reviews." }),
    variant_id: positiveId()
      .nullable()
      .optional()
      .openapi({ description: "A variant of `product_id` (product reviews only)." }),
  })
  .strict()
  // Runs even when other fields failed, so one 400 lists every problem of the body.
  .superRefine(
    (body, ctx) => {
      for (const p of crossFieldProblems(body))
        ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
    },
    { when: (payload) => isObject(payload.value) },
  )
  .openapi("ReviewCreate", {
    example: {
      locale: "es-ES",
      content: "Muy cómoda y llegó en dos días.",
      reviewer_email: "ana@example.com",
      reviewer_name: "Ana",
      type: "product",
      rating: 5,
      product_id: 1,
      variant_id: 2,
    },
  });

export const ReviewUpdateSchema = z
  .object({
    locale: localeText().optional(),
    content: content().optional(),
    reviewer_email: email().optional(),
    type: z.enum(REVIEW_TYPES).optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    rating: rating().nullable().optional(),
    created_at: instant().optional(),
    reviewer_name: nameText().nullable().optional(),
    order_id: positiveId().nullable().optional(),
    customer_id: positiveId().nullable().optional(),
    product_id: positiveId().nullable().optional(),
    variant_id: positiveId().nullable().optional(),
  })
  .strict()
  .openapi("ReviewUpdate", {
    description:
      "Only the fields sent change; nullable fields accept null. `type` vs `product_id` is checked on the result.",
    example: { status: "published" },
  });

export type ReviewCreate = z.output<typeof ReviewCreateSchema>;
export type ReviewUpdate = z.output<typeof ReviewUpdateSchema>;
