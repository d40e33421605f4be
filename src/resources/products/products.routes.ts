import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { listResource } from "../../conventions/engine.ts";
import { type ConventionQuery, conventionQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList } from "../../conventions/routes.ts";
import { products, variants } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { listOf } from "../../http/openapi-shared.ts";
import { defineRoute } from "../../http/route.ts";
import { variantResource } from "../variants/variants.resource.ts";
import { VariantSchema } from "../variants/variants.schema.ts";
import { productResource } from "./products.resource.ts";
import { ProductSchema } from "./products.schema.ts";

const read = {
  path: "/products",
  tag: "Products",
  item: ProductSchema,
  plural: "Products",
  singular: "Product",
};

const productIdParam = z.object({
  product_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ type: "integer", param: { name: "product_id", in: "path" }, example: 1 }),
});

export function registerProducts(app: OpenAPIHono<AppEnv>) {
  mountList(app, productResource, read);
  mountGet(app, productResource, read);

  defineRoute(
    app,
    {
      method: "get",
      path: "/api/v1/products/{product_id}/variants",
      operationId: "listProductVariants",
      summary: "List variants of a product",
      description: "Variants with `prices` for the markets of the requested locales (one entry per market).",
      tags: ["Variants"],
      scope: "read",
      params: productIdParam,
      query: conventionQuerySchema(variantResource, "list"),
      responses: {
        200: {
          description: "A page of variants",
          content: { "application/json": { schema: listOf(VariantSchema) } },
        },
      },
    },
    async (c, { params, query }) =>
      c.json(
        await listResource(
          c,
          variantResource,
          query as ConventionQuery,
          eq(variants.productId, params.product_id),
          {
            label: "Product",
            query: c
              .get("db")
              .select({ id: products.id })
              .from(products)
              .where(eq(products.id, params.product_id)),
          },
        ),
      ),
  );
}
