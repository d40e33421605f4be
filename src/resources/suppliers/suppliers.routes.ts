import type { OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { writeQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList } from "../../conventions/routes.ts";
import { created, runWrite, updated } from "../../conventions/writes.ts";
import { suppliers } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { supplierResource } from "./suppliers.resource.ts";
import { SupplierCreateSchema, SupplierSchema, SupplierUpdateSchema } from "./suppliers.schema.ts";

const UNIQUE = {
  suppliers_internal_id_unique: { path: "internal_id", message: "is already used by another supplier" },
};

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

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/suppliers",
      operationId: "createSupplier",
      summary: "Create a supplier",
      tags: ["Suppliers"],
      scope: "write",
      query: writeQuerySchema(supplierResource),
      body: SupplierCreateSchema,
      responses: {
        201: { description: "Created", content: { "application/json": { schema: SupplierSchema } } },
      },
    },
    async (c, { query, body }) => {
      const [row] = await runWrite(c, UNIQUE, () =>
        c
          .get("db")
          .insert(suppliers)
          .values({ name: body.name, internalId: body.internal_id, description: body.description ?? null })
          .returning({ id: suppliers.id }),
      );
      return created(c, supplierResource, "/suppliers", (row as { id: number }).id, query);
    },
  );

  defineRoute(
    app,
    {
      method: "patch",
      path: "/api/v1/suppliers/{id}",
      operationId: "updateSupplier",
      summary: "Update a supplier",
      description: "Changes only the fields sent.",
      tags: ["Suppliers"],
      scope: "write",
      params: pathId,
      query: writeQuerySchema(supplierResource),
      body: SupplierUpdateSchema,
      responses: {
        200: { description: "Updated", content: { "application/json": { schema: SupplierSchema } } },
      },
    },
    async (c, { params, query, body }) => {
      const changes = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.internal_id !== undefined ? { internalId: body.internal_id } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        updatedAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      };
      const rows = await runWrite(c, UNIQUE, () =>
        c
          .get("db")
          .update(suppliers)
          .set(changes)
          .where(eq(suppliers.id, params.id))
          .returning({ id: suppliers.id }),
      );
      if (rows.length === 0) throw notFound("Supplier");
      return updated(c, supplierResource, params.id, query);
    },
  );
}
