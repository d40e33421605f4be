import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountCreate, mountGet, mountList, mountUpdate } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
import { brandResource } from "./brands.resource.ts";
import { BrandCreateSchema, BrandSchema, BrandUpdateSchema } from "./brands.schema.ts";
import { createBrand, updateBrand } from "./brands.write.ts";

const read = { path: "/brands", tag: "Brands", item: BrandSchema, plural: "Brands", singular: "Brand" };

export function registerBrands(app: OpenAPIHono<AppEnv>) {
  mountList(app, brandResource, read);
  mountGet(app, brandResource, read);

  mountCreate(app, brandResource, {
    ...read,
    description:
      "Creates a brand. The slug is generated from the name when omitted (`-2`, `-3`… on collision); a supplied slug that is taken is 409.",
    body: BrandCreateSchema,
    create: createBrand,
  });

  mountUpdate(app, brandResource, {
    ...read,
    description: "Changes only the fields sent; `translations` merge per locale and per field.",
    body: BrandUpdateSchema,
    update: updateBrand,
  });
}
