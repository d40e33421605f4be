import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { dateRangeFilters, enumFilter, filter, idFilter } from "../../conventions/filters.ts";
import { defineResource } from "../../conventions/resource.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { assertLocalesEnabled } from "../../conventions/store-settings.ts";
import { PUBLICATION_STATUSES, REVIEW_TYPES, reviews } from "../../db/schema/index.ts";
import { listParam, parsePlainInt } from "../../http/params.ts";
import { isSupportedLocale, SUPPORTED_LOCALES } from "../../lib/locales.ts";
import { ReviewSchema } from "./reviews.schema.ts";

type ReviewRow = typeof reviews.$inferSelect;

/** `locale` filter: one supported locale; anything else is `unsupported_locale`. */
const localeFilter = z
  .string()
  .superRefine((raw, ctx) => {
    // Only list filters take commas.
    if (raw === "") ctx.addIssue({ code: "custom", message: "must not be empty" });
    else if (raw.includes(",")) ctx.addIssue({ code: "custom", message: "takes a single locale" });
    else if (!isSupportedLocale(raw)) {
      ctx.addIssue({
        code: "custom",
        message: `'${raw.slice(0, 50)}' is not a supported locale (${SUPPORTED_LOCALES.join(", ")})`,
        params: { problemCode: "unsupported_locale" },
      });
    }
  })
  .openapi({ description: "Reviews written in this locale.", enum: [...SUPPORTED_LOCALES] });

const ratingFilter = listParam<number>(
  (raw) => {
    const n = parsePlainInt(raw);
    return n !== null && n >= 1 && n <= 5
      ? { ok: true, value: n }
      : { ok: false, message: "is not an integer from 1 to 5" };
  },
  { itemType: "integer", example: "4,5", description: "Ratings (1 to 5); any of them matches." },
);

/** Reviews: no translations, no includes; `rating` is null when the reviewer gave none. */
export const reviewResource = defineResource<{ row: ReviewRow; item: typeof ReviewSchema }>({
  name: "reviews",
  label: "Review",
  path: "/reviews",
  tag: "Reviews",
  plural: "Reviews",
  item: ReviewSchema,
  description:
    "Newest first by default. `rating` sorts put reviews without a rating last in both directions; ties break by id.",
  table: reviews,
  idColumn: reviews.id,
  localized: false,
  cache: ["reviews"],
  fields: {
    id: column(reviews.id, "fixed"),
    locale: column(reviews.locale, "default"),
    status: column(reviews.status, "default"),
    rating: column(reviews.rating, "default"),
    created_at: column(reviews.createdAt, "default"),
    type: column(reviews.type, "default"),
    content: column(reviews.content),
    reviewer_name: column(reviews.reviewerName),
    reviewer_email: column(reviews.reviewerEmail),
    order_id: column(reviews.orderId),
    customer_id: column(reviews.customerId),
    product_id: column(reviews.productId),
    variant_id: column(reviews.variantId),
  },
  filters: {
    ...dateRangeFilters("created_at", reviews.createdAt, "Reviews created"),
    locale: filter(localeFilter, (v, ctx) => {
      // Supported but not enabled is unsupported too.
      assertLocalesEnabled(ctx.store, [v], (l) => ({
        location: "query",
        path: "locale",
        message: `${l} is not enabled for this store`,
      }));
      return eq(reviews.locale, v);
    }),
    product_id: idFilter(reviews.productId, "Reviews of this product."),
    rating: filter(ratingFilter, (v) => jsonIn(reviews.rating, v)),
    status: enumFilter(reviews.status, PUBLICATION_STATUSES, "Publication status."),
    type: enumFilter(reviews.type, REVIEW_TYPES, "`product` or `store` reviews (absent: both)."),
  },
  sorts: {
    created_at: { column: reviews.createdAt },
    rating: { column: reviews.rating },
    id: { column: reviews.id },
  },
  defaultSort: "created_at_desc",
});
