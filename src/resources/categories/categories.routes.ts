import type { OpenAPIHono } from "@hono/zod-openapi";
import { writeQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList } from "../../conventions/routes.ts";
import { created, updated } from "../../conventions/writes.ts";
import type { AppEnv } from "../../env.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { categoryResource } from "./categories.resource.ts";
import { CategoryCreateSchema, CategorySchema, CategoryUpdateSchema } from "./categories.schema.ts";
import { createCategory, updateCategory } from "./categories.write.ts";

const read = {
  path: "/categories",
  tag: "Categories",
  item: CategorySchema,
  plural: "Categories",
  singular: "Category",
};

export function registerCategories(app: OpenAPIHono<AppEnv>) {
  mountList(app, categoryResource, read);
  mountGet(app, categoryResource, read);

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/categories",
      operationId: "createCategory",
      summary: "Create a category",
      description: "Slugs are generated per locale from the name (unique per locale) unless supplied.",
      tags: ["Categories"],
      scope: "write",
      query: writeQuerySchema(categoryResource),
      body: CategoryCreateSchema,
      responses: {
        201: { description: "Created", content: { "application/json": { schema: CategorySchema } } },
      },
    },
    async (c, { query, body }) =>
      created(c, categoryResource, "/categories", await createCategory(c, body), query),
  );

  defineRoute(
    app,
    {
      method: "patch",
      path: "/api/v1/categories/{id}",
      operationId: "updateCategory",
      summary: "Update a category",
      description:
        "Changes only the fields sent; `translations` and `merchant_categories` merge key by key. A `parent_id` that would make the category its own ancestor is 409.",
      tags: ["Categories"],
      scope: "write",
      params: pathId,
      query: writeQuerySchema(categoryResource),
      body: CategoryUpdateSchema,
      responses: {
        200: { description: "Updated", content: { "application/json": { schema: CategorySchema } } },
      },
    },
    async (c, { params, query, body }) => {
      await updateCategory(c, params.id, body);
      return updated(c, categoryResource, params.id, query);
    },
  );
}
