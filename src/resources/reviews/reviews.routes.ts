import type { OpenAPIHono } from "@hono/zod-openapi";
import { writeQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList } from "../../conventions/routes.ts";
import { created, updated } from "../../conventions/writes.ts";
import type { AppEnv } from "../../env.ts";
import { defineRoute, pathId } from "../../http/route.ts";
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

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/reviews",
      operationId: "createReview",
      summary: "Create a review",
      description:
        "Defaults: `status` `unpublished`, `created_at` now, `rating` null. Product reviews need `product_id` (and `variant_id`, when sent, must be one of its variants); store reviews take neither. Unknown order, customer, product or variant ids are 400, one entry each.",
      tags: ["Reviews"],
      scope: "write",
      query: writeQuerySchema(reviewResource),
      body: ReviewCreateSchema,
      responses: {
        201: { description: "Created", content: { "application/json": { schema: ReviewSchema } } },
      },
    },
    async (c, { query, body }) => created(c, reviewResource, "/reviews", await createReview(c, body), query),
  );

  defineRoute(
    app,
    {
      method: "patch",
      path: "/api/v1/reviews/{id}",
      operationId: "updateReview",
      summary: "Update a review",
      description:
        "Changes only the fields sent; nullable fields accept null. The `type` / `product_id` / `variant_id` rules are checked on the review as it would be after the change.",
      tags: ["Reviews"],
      scope: "write",
      params: pathId,
      query: writeQuerySchema(reviewResource),
      body: ReviewUpdateSchema,
      responses: {
        200: { description: "Updated", content: { "application/json": { schema: ReviewSchema } } },
      },
    },
    async (c, { params, query, body }) => {
      await updateReview(c, params.id, body);
      return updated(c, reviewResource, params.id, query);
    },
  );
}
