import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountCreate, mountGet, mountList, mountUpdate } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
import { reviewResource } from "./reviews.resource.ts";
import { ReviewCreateSchema, ReviewSchema, ReviewUpdateSchema } from "./reviews.schema.ts";
import { createReview, updateReview } from "./reviews.write.ts";

const read = {
  path: "/reviews",
  tag: "Reviews",
  item: ReviewSchema,
  plural: "Reviews",
  singular: "Review",
  description:
    "Newest first by default. `rating` sorts put reviews without a rating last in both directions; ties break by id.",
};

export function registerReviews(app: OpenAPIHono<AppEnv>) {
  mountList(app, reviewResource, read);
  mountGet(app, reviewResource, read);

  mountCreate(app, reviewResource, {
    ...read,
    description:
      "Defaults: `status` `unpublished`, `created_at` now, `rating` null. Product reviews need `product_id` (and `variant_id`, when sent, must be one of its variants); store reviews take neither. Unknown order, customer, product or variant ids are 400, one entry each.",
    body: ReviewCreateSchema,
    create: createReview,
  });

  mountUpdate(app, reviewResource, {
    ...read,
    description:
      "Changes only the fields sent; nullable fields accept null. The `type` / `product_id` / `variant_id` rules are checked on the review as it would be after the change.",
    body: ReviewUpdateSchema,
    update: updateReview,
  });
}
