import { column } from "../../conventions/column-field.ts";
import { defineResource } from "../../conventions/resource.ts";
import { suppliers } from "../../db/schema/index.ts";
import { SupplierSchema } from "./suppliers.schema.ts";

type SupplierRow = typeof suppliers.$inferSelect;

/** Unlike other resources, a supplier's fixed field is `name` and its default field `id`. */
export const supplierResource = defineResource<{ row: SupplierRow; item: typeof SupplierSchema }>({
  name: "suppliers",
  label: "Supplier",
  path: "/suppliers",
  tag: "Suppliers",
  plural: "Suppliers",
  item: SupplierSchema,
  table: suppliers,
  idColumn: suppliers.id,
  localized: false,
  cache: ["suppliers"],
  fields: {
    name: column(suppliers.name, "fixed"),
    id: column(suppliers.id, "default"),
    internal_id: column(suppliers.internalId),
    description: column(suppliers.description),
  },
  sorts: { id: { column: suppliers.id }, name: { column: suppliers.name } },
  defaultSort: "id_asc",
});
