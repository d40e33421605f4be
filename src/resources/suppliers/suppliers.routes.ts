import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountCreate, mountGet, mountList, mountUpdate } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
import { supplierResource } from "./suppliers.resource.ts";
import { SupplierCreateSchema, SupplierSchema, SupplierUpdateSchema } from "./suppliers.schema.ts";
import { createSupplier, updateSupplier } from "./suppliers.write.ts";

const read = {
  path: "/suppliers",
  tag: "Suppliers",
  item: SupplierSchema,
  plural: "Suppliers",
  singular: "Supplier",
};

export function registerSuppliers(app: OpenAPIHono<AppEnv>) {
  mountList(app, supplierResource, read);
  mountGet(app, supplierResource, read);
  mountCreate(app, supplierResource, { ...read, body: SupplierCreateSchema, create: createSupplier });
  mountUpdate(app, supplierResource, {
    ...read,
    description: "Changes only the fields sent.",
    body: SupplierUpdateSchema,
    update: updateSupplier,
  });
}
