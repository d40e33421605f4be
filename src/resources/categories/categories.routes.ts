import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { CategoryCreateSchema, CategoryUpdateSchema } from "./categories.schema.ts";
import { createCategory, updateCategory } from "./categories.write.ts";

export const categoryRoutes: MountRoute[] = [
  createRoute({
    description: "Slugs are generated per locale from the name (unique per locale) unless supplied.",
    body: CategoryCreateSchema,
    create: createCategory,
  }),
  updateRoute({
    description:
      "Changes only the fields sent; `translations` and `merchant_categories` merge key by key. A `parent_id` that would make the category its own ancestor is 409.",
    body: CategoryUpdateSchema,
    update: updateCategory,
  }),
];
