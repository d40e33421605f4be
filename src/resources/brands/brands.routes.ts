import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { BrandCreateSchema, BrandUpdateSchema } from "./brands.schema.ts";
import { createBrand, updateBrand } from "./brands.write.ts";

export const brandRoutes: MountRoute[] = [
  createRoute({
    description:
      "Creates a brand. The slug is generated from the name when omitted (`-2`, `-3`… on collision); a supplied slug that is taken is 409.",
    body: BrandCreateSchema,
    create: createBrand,
  }),
  updateRoute({
    description: "Changes only the fields sent; `translations` merge per locale and per field.",
    body: BrandUpdateSchema,
    update: updateBrand,
  }),
];
