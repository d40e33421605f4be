import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { SupplierCreateSchema, SupplierUpdateSchema } from "./suppliers.schema.ts";
import { createSupplier, updateSupplier } from "./suppliers.write.ts";

export const supplierRoutes: MountRoute[] = [
  createRoute({ body: SupplierCreateSchema, create: createSupplier }),
  updateRoute({
    description: "Changes only the fields sent.",
    body: SupplierUpdateSchema,
    update: updateSupplier,
  }),
];
