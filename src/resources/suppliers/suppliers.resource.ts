import { defineResource } from "../../conventions/resource.ts";
import { suppliers } from "../../db/schema/index.ts";
import { SupplierSchema } from "./suppliers.schema.ts";

type SupplierRow = typeof suppliers.$inferSelect;

/** Unlike other resources, a supplier's fixed field is `name` and its default field `id`. */
export const supplierResource = defineResource<SupplierRow>({
  name: "suppliers",
  label: "Supplier",
  path: "/suppliers",
  tag: "Suppliers",
  plural: "Suppliers",
  item: SupplierSchema,
  table: suppliers,
  idColumn: suppliers.id,
  localized: false,
  fields: {
    name: { kind: "fixed", render: (r) => r.name },
    id: { kind: "default", render: (r) => r.id },
    internal_id: { render: (r) => r.internalId },
    description: { render: (r) => r.description },
  },
  sorts: { id: { column: suppliers.id }, name: { column: suppliers.name } },
  defaultSort: "id_asc",
});
