import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { ReviewCreateSchema, ReviewUpdateSchema } from "./reviews.schema.ts";
import { createReview, updateReview } from "./reviews.write.ts";

export const reviewRoutes: MountRoute[] = [
  createRoute({
    description:
      "Defaults: `status` `unpublished`, `created_at` now, `rating` null. Product reviews need `product_id` (and `variant_id`, when sent, must be one of its variants); store reviews take neither. Unknown order, customer, product or variant ids are 400, one entry each.",
    body: ReviewCreateSchema,
    create: createReview,
  }),
  updateRoute({
    description:
      "Changes only the fields sent; nullable fields accept null. The `type` / `product_id` / `variant_id` rules are checked on the review as it would be after the change.",
    body: ReviewUpdateSchema,
    update: updateReview,
  }),
];
