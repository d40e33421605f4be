import { z } from "@hono/zod-openapi";

export const SupplierSchema = z
  .object({
    name: z.string().openapi({ description: "Fixed field." }),
    id: z.number().int().optional().openapi({ description: "Default field." }),
    internal_id: z.string().optional(),
    description: z.string().nullable().optional().openapi({ description: "Internal notes." }),
  })
  .openapi("Supplier", { example: { name: "Acme Supplies", id: 1 } });

const name = z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters");
const internalId = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const description = z.string().max(65_535, "must be at most 65535 characters").nullable();

export const SupplierCreateSchema = z
  .object({ name, internal_id: internalId, description: description.optional() })
  .strict()
  .openapi("SupplierCreate", { example: { name: "Acme Supplies", internal_id: "SUP-001" } });

export const SupplierUpdateSchema = z
  .object({ name: name.optional(), internal_id: internalId.optional(), description: description.optional() })
  .strict()
  .openapi("SupplierUpdate", { example: { description: "Ships from Valencia" } });

export type SupplierCreate = z.output<typeof SupplierCreateSchema>;
export type SupplierUpdate = z.output<typeof SupplierUpdateSchema>;
