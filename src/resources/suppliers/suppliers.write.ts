import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { runWrite } from "../../conventions/write/run-write.ts";
import { generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { suppliers } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { isoSeconds } from "../../lib/time.ts";
import { supplierResource } from "./suppliers.resource.ts";
import type { SupplierCreate, SupplierUpdate } from "./suppliers.schema.ts";

const UNIQUE = {
  suppliers_internal_id_unique: { path: "internal_id", message: "is already used by another supplier" },
};

export async function createSupplier(c: Context<AppEnv>, body: SupplierCreate): Promise<number> {
  const db = c.get("db");
  const [[row]] = await runWrite(c, UNIQUE, () =>
    db.batch([
      db
        .insert(suppliers)
        // The body carries `name` and `internal_id` (its schema requires them), the NOT NULL columns.
        .values(columnChanges(supplierResource, body) as typeof suppliers.$inferInsert)
        .returning({ id: suppliers.id }),
      routeFeedEntry(db, "suppliers", sql`last_insert_rowid()`),
      generationBump(db, ["suppliers"]),
    ]),
  );
  return (row as { id: number }).id;
}

export async function updateSupplier(c: Context<AppEnv>, id: number, body: SupplierUpdate): Promise<void> {
  const changes = { ...columnChanges(supplierResource, body), updatedAt: isoSeconds() };
  const db = c.get("db");
  const [rows] = await runWrite(c, UNIQUE, () =>
    db.batch([
      db.update(suppliers).set(changes).where(eq(suppliers.id, id)).returning({ id: suppliers.id }),
      routeFeedEntry(db, "suppliers", id, { ifChanged: true }),
      generationBump(db, ["suppliers"], { ifChanged: true }),
    ]),
  );
  if (rows.length === 0) throw notFound("Supplier");
}
