import { type SQL, sql } from "drizzle-orm";
import type { RecordProblems } from "../../async/bulk/record-errors.ts";
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

interface MatchedVariant {
  id: number;
  product_id: number;
  /** With `markets`: the markets that already have a price for this variant. */
  markets?: string[];
  /** With `priceListId`: whether the variant already has a fixed price in that price list. */
  priced?: boolean;
}

/** What else to read about each matched variant, in the same query. */
interface MatchOptions {
  markets?: boolean;
  priceListId?: number;
}

/**
 * The query resolving the identifiers of a chunk to variants, one row per (record index, matching
 * variant). `sku_supplier` reads the variant's supplier as its product's supplier, matched by the
 * supplier's internal id; SKUs compare case-insensitively. `CROSS JOIN` keeps the chunk's keys the
 * outer loop whatever the statistics say (with the demo seed's, a plain JOIN scanned `variants` once
 * per key: 2.6 s for 2,000 keys on 4,353 variants, 5 ms as written).
 */
export function matchQuery(by: VariantMatchBy, keys: VariantKey[], options: MatchOptions = {}): SQL {
  const condition =
    by === "id"
      ? sql`v.id = json_extract(j.value, '$.id')`
      : by === "internal_id"
        ? sql`v.internal_id = json_extract(j.value, '$.internal_id')`
        : by === "ean"
          ? sql`v.ean = json_extract(j.value, '$.ean')`
          : sql`v.sku = json_extract(j.value, '$.sku') COLLATE NOCASE AND v.supplier_id = (SELECT s.id FROM suppliers s WHERE s.internal_id = json_extract(j.value, '$.supplier_internal_id'))`;
  const markets = options.markets
    ? sql`, (SELECT json_group_array(p.market) FROM variant_prices p WHERE p.variant_id = v.id) AS markets`
    : sql``;
  const priced =
    options.priceListId !== undefined
      ? sql`, EXISTS (SELECT 1 FROM price_list_variant_prices l WHERE l.price_list_id = ${options.priceListId} AND l.variant_id = v.id) AS priced`
      : sql``;
  return sql`SELECT json_extract(j.value, '$.index') AS idx, v.id AS id, v.product_id AS product_id${markets}${priced}
      FROM json_each(${JSON.stringify(keys)}) AS j CROSS JOIN variants v ON ${condition} ORDER BY v.id`;
}

interface MatchRow {
  idx: number;
  id: number;
  product_id: number;
  markets?: string;
  priced?: number;
}

/** The rows of a matchQuery as record index → every matching variant (none: NOT_FOUND, several: AMBIGUOUS_MATCH). */
export function collectMatches(rows: readonly unknown[]) {
  const out = new Map<number, MatchedVariant[]>();
  for (const r of rows as MatchRow[]) {
    const variant: MatchedVariant = { id: r.id, product_id: r.product_id };
    if (r.markets !== undefined) variant.markets = JSON.parse(r.markets) as string[];
    if (r.priced !== undefined) variant.priced = r.priced === 1;
    const list = out.get(r.idx);
    if (list) list.push(variant);
    else out.set(r.idx, [variant]);
  }
  return out;
}

/** Resolves the identifiers of a chunk to variants in one query (see matchQuery, collectMatches). */
export async function matchVariants(
  d1: D1Database,
  by: VariantMatchBy,
  keys: VariantKey[],
  options: MatchOptions = {},
) {
  if (keys.length === 0) return new Map<number, MatchedVariant[]>();
  return collectMatches(await rawAll<MatchRow>(d1, matchQuery(by, keys, options)));
}

/**
 * The one variant a record matched: with none, NOT_FOUND ("No variant matches this `by`"); with
 * several, AMBIGUOUS_MATCH naming them (and `by` too when `named`).
 */
export function onlyMatch<V extends { id: number }>(
  found: readonly V[],
  problems: RecordProblems,
  by: string,
  named = false,
): V | undefined {
  if (found.length === 0) problems.add("NOT_FOUND", null, `No variant matches this ${by}`);
  if (found.length > 1) {
    const ids = found.map((v) => v.id).join(", ");
    problems.add(
      "AMBIGUOUS_MATCH",
      null,
      `${found.length} variants match${named ? ` this ${by}` : ""}: ${ids}`,
    );
  }
  return found.length === 1 ? found[0] : undefined;
}
