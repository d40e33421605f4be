import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { mountGet, mountList, mountSubList } from "../../conventions/routes.ts";
import { products, variants } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
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

  mountSubList(app, variantResource, {
    path: "/products/{product_id}/variants",
    params: productIdParam,
    param: "product_id",
    operationId: "listProductVariants",
    summary: "List variants of a product",
    description: "Variants with `prices` for the markets of the requested locales (one entry per market).",
    tag: "Variants",
    item: VariantSchema,
    parent: { label: "Product", table: products, idColumn: products.id },
    belongsTo: (id) => eq(variants.productId, id as number),
  });
}
