import type { CatalogRefs } from "./bulk.ts";
import { openDb } from "./database.ts";

/** The variant ids and the references of a realistic import, from the catalog before the jobs. */
export function readCatalog(file: string): { variantIds: number[]; refs: CatalogRefs } {
  const db = openDb(file, true);
  try {
    const idsOf = (sql: string) => (db.prepare(sql).all() as { id: number }[]).map((r) => r.id);
    // Products whose variants all have an internal id: a re-sent import matches them by it.
    const products = db
      .prepare(
        `SELECT p.internal_id AS internalId, json_group_array(v.internal_id) AS variants FROM products p
         JOIN variants v ON v.product_id = p.id WHERE p.internal_id IS NOT NULL
         GROUP BY p.id HAVING count(v.internal_id) = count(*) ORDER BY p.id`,
      )
      .all() as { internalId: string; variants: string }[];
    return {
      variantIds: idsOf("SELECT id FROM variants ORDER BY id"),
      refs: {
        brandIds: idsOf("SELECT id FROM brands ORDER BY id"),
        supplierIds: idsOf("SELECT id FROM suppliers ORDER BY id"),
        categoryIds: idsOf("SELECT id FROM categories ORDER BY id"),
        products: products.map((p) => ({
          internalId: p.internalId,
          variantInternalIds: JSON.parse(p.variants) as string[],
        })),
      },
    };
  } finally {
    db.close();
  }
}
