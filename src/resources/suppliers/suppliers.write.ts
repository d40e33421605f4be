import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { runWrite } from "../../conventions/write/run-write.ts";
import { suppliers } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { isoSeconds } from "../../lib/time.ts";
import type { SupplierCreate, SupplierUpdate } from "./suppliers.schema.ts";

const UNIQUE = {
  suppliers_internal_id_unique: { path: "internal_id", message: "is already used by another supplier" },
};

export async function createSupplier(c: Context<AppEnv>, body: SupplierCreate): Promise<number> {
  const [row] = await runWrite(c, UNIQUE, () =>
    c
      .get("db")
      .insert(suppliers)
      .values({ name: body.name, internalId: body.internal_id, description: body.description ?? null })
      .returning({ id: suppliers.id }),
  );
  return (row as { id: number }).id;
}

export async function updateSupplier(c: Context<AppEnv>, id: number, body: SupplierUpdate): Promise<void> {
  const changes = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.internal_id !== undefined ? { internalId: body.internal_id } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    updatedAt: isoSeconds(),
  };
  const rows = await runWrite(c, UNIQUE, () =>
    c.get("db").update(suppliers).set(changes).where(eq(suppliers.id, id)).returning({ id: suppliers.id }),
  );
  if (rows.length === 0) throw notFound("Supplier");
}
