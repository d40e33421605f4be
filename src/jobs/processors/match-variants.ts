import { sql } from "drizzle-orm";
import { rawAll } from "../../db/raw.ts";

export const VARIANT_MATCH_BY = ["id", "internal_id", "ean", "sku_supplier"] as const;
export type VariantMatchBy = (typeof VARIANT_MATCH_BY)[number];

export interface VariantKey {
  index: number;
  id?: number;
  internal_id?: string;
  ean?: string;
  sku?: string;
  supplier_internal_id?: string;
}

export interface MatchedVariant {
  id: number;
  product_id: number;
}

/**
 * Resolves the identifiers of a chunk to variants in one query: record index → every matching
 * variant (none: NOT_FOUND, several: AMBIGUOUS_MATCH). `sku_supplier` reads the variant's supplier
 * as its product's supplier, matched by the supplier's internal id; SKUs compare case-insensitively.
 */
export async function matchVariants(d1: D1Database, by: VariantMatchBy, keys: VariantKey[]) {
  const out = new Map<number, MatchedVariant[]>();
  if (keys.length === 0) return out;
  const json = JSON.stringify(keys);
  const condition =
    by === "id"
      ? sql`v.id = json_extract(j.value, '$.id')`
      : by === "internal_id"
        ? sql`v.internal_id = json_extract(j.value, '$.internal_id')`
        : by === "ean"
          ? sql`v.ean = json_extract(j.value, '$.ean')`
          : sql`v.sku = json_extract(j.value, '$.sku') COLLATE NOCASE AND v.supplier_id = (SELECT s.id FROM suppliers s WHERE s.internal_id = json_extract(j.value, '$.supplier_internal_id'))`;
  const rows = await rawAll<{ idx: number; id: number; product_id: number }>(
    d1,
    sql`SELECT json_extract(j.value, '$.index') AS idx, v.id AS id, v.product_id AS product_id
        FROM json_each(${json}) AS j JOIN variants v ON ${condition} ORDER BY v.id`,
  );
  for (const r of rows) out.set(r.idx, [...(out.get(r.idx) ?? []), { id: r.id, product_id: r.product_id }]);
  return out;
}

/** Markets that already have a price, per variant id, in one query. */
export async function existingMarkets(d1: D1Database, variantIds: number[]) {
  const out = new Map<number, Set<string>>();
  if (variantIds.length === 0) return out;
  const rows = await rawAll<{ variant_id: number; market: string }>(
    d1,
    sql`SELECT variant_id, market FROM variant_prices WHERE variant_id IN (SELECT value FROM json_each(${JSON.stringify(variantIds)}))`,
  );
  for (const r of rows) {
    const set = out.get(r.variant_id) ?? new Set<string>();
    set.add(r.market);
    out.set(r.variant_id, set);
  }
  return out;
}
