import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { SupplierCreateSchema, SupplierUpdateSchema } from "./suppliers.schema.ts";
import { createSupplier, updateSupplier } from "./suppliers.write.ts";

export const supplierRoutes: MountRoute[] = [
  createRoute({
    description:
      "Creates a supplier from its `name` and `internal_id`; an `internal_id` another supplier has is 409.",
    body: SupplierCreateSchema,
    create: createSupplier,
  }),
  updateRoute({
    description: "Changes only the fields sent.",
    body: SupplierUpdateSchema,
    update: updateSupplier,
  }),
];
