import type { OpenAPIHono } from "@hono/zod-openapi";
import { writeQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList } from "../../conventions/routes.ts";
import { created, updated } from "../../conventions/writes.ts";
import type { AppEnv } from "../../env.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { brandResource } from "./brands.resource.ts";
import { BrandCreateSchema, BrandSchema, BrandUpdateSchema } from "./brands.schema.ts";
import { createBrand, updateBrand } from "./brands.write.ts";

const read = { path: "/brands", tag: "Brands", item: BrandSchema, plural: "Brands", singular: "Brand" };

export function registerBrands(app: OpenAPIHono<AppEnv>) {
  mountList(app, brandResource, read);
  mountGet(app, brandResource, read);

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/brands",
      operationId: "createBrand",
      summary: "Create a brand",
      description:
        "Creates a brand. The slug is generated from the name when omitted (`-2`, `-3`… on collision); a supplied slug that is taken is 409.",
      tags: ["Brands"],
      scope: "write",
      query: writeQuerySchema(brandResource),
      body: BrandCreateSchema,
      responses: {
        201: { description: "Created", content: { "application/json": { schema: BrandSchema } } },
      },
    },
    async (c, { query, body }) => created(c, brandResource, "/brands", await createBrand(c, body), query),
  );

  defineRoute(
    app,
    {
      method: "patch",
      path: "/api/v1/brands/{id}",
      operationId: "updateBrand",
      summary: "Update a brand",
      description: "Changes only the fields sent; `translations` merge per locale and per field.",
      tags: ["Brands"],
      scope: "write",
      params: pathId,
      query: writeQuerySchema(brandResource),
      body: BrandUpdateSchema,
      responses: {
        200: { description: "Updated", content: { "application/json": { schema: BrandSchema } } },
      },
    },
    async (c, { params, query, body }) => {
      await updateBrand(c, params.id, body);
      return updated(c, brandResource, params.id, query);
    },
  );
}
