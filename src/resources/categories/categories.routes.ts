import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountCreate, mountGet, mountList, mountUpdate } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
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

  mountCreate(app, categoryResource, {
    ...read,
    description: "Slugs are generated per locale from the name (unique per locale) unless supplied.",
    body: CategoryCreateSchema,
    create: createCategory,
  });

  mountUpdate(app, categoryResource, {
    ...read,
    description:
      "Changes only the fields sent; `translations` and `merchant_categories` merge key by key. A `parent_id` that would make the category its own ancestor is 409.",
    body: CategoryUpdateSchema,
    update: updateCategory,
  });
}
