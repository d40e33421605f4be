import { sql } from "drizzle-orm";
import { rawBatch } from "../../db/raw.ts";
import { jsonKeys } from "../../db/stated-plans.ts";
import { slugCandidateStems } from "../../lib/slug.ts";
import type { ProductRecord } from "./products.bulk-record.ts";

export interface ExistingProduct {
  id: number;
  internal_id: string | null;
  product_structure: "simple" | "with-variants";
  supplier_id: number | null;
}

export interface ExistingVariant {
  id: number;
  product_id: number;
  internal_id: string | null;
}

/**
 * Everything a chunk of product records needs to be validated and planned, read in one batch
 * (one D1 round trip): matched products, referenced suppliers/brands/categories, variants and
 * translation locales of the matched products, taken slugs for new translations, and id maxima.
 */
export async function lookupProducts(
  d1: D1Database,
  matchBy: "id" | "internal_id",
  records: ProductRecord[],
  slugBases: { locale: string; base: string }[],
) {
  const keys = records
    .map((r) => (matchBy === "id" ? r.id : r.internal_id))
    .filter((k): k is number | string => k !== undefined && k !== null);
  const keyJson = JSON.stringify(keys);
  // Every stem a candidate of a base can have: long bases are cut to make room for `-N`.
  const slugStems = [
    ...new Map(
      slugBases.flatMap(({ locale, base }) =>
        [base, ...slugCandidateStems(base)].map((stem) => [`${locale}\u0000${stem}`, { locale, base: stem }]),
      ),
    ).values(),
  ];
  // Every lookup is driven by the chunk's keys (`CROSS JOIN`, see src/db/stated-plans.ts): with the
  // demo seed's statistics, `id IN (SELECT value FROM json_each(?))` read all of `products` and of
  // `variants` per chunk.
  const matched = sql`${jsonKeys(keyJson)} AS k CROSS JOIN products p ON p.${sql.raw(matchBy === "id" ? "id" : "internal_id")} = k.value`;
  const refs = {
    suppliers: JSON.stringify(records.map((r) => r.supplier_id).filter((v) => v != null)),
    brands: JSON.stringify(records.map((r) => r.brand_id).filter((v) => v != null)),
    categories: JSON.stringify(records.flatMap((r) => r.category_ids ?? [])),
  };
  const nestedInternalIds = JSON.stringify(
    records.flatMap((r) => (r.variants ?? []).map((v) => v.internal_id).filter((v) => v != null)),
  );
  // Taken slugs `<base>` and `<base>-<digits>` lie in the range [base, base + "."), which the
  // (locale, slug) index bounds (slugs hold only [a-z0-9-], and "-" sorts just before "."). Not GLOB:
  // D1 refuses patterns over 50 bytes, and a GLOB on a computed pattern scans the whole locale.
  const results = await rawBatch(d1, [
    sql`SELECT p.id, p.internal_id, p.product_structure, p.supplier_id FROM ${matched}`,
    sql`
      SELECT 'supplier' AS kind, t.id FROM ${jsonKeys(refs.suppliers)} AS k CROSS JOIN suppliers t ON t.id = k.value
      UNION ALL SELECT 'brand', t.id FROM ${jsonKeys(refs.brands)} AS k CROSS JOIN brands t ON t.id = k.value
      UNION ALL SELECT 'category', t.id FROM ${jsonKeys(refs.categories)} AS k CROSS JOIN categories t ON t.id = k.value`,
    sql`
      SELECT v.id, v.product_id, v.internal_id FROM ${matched} CROSS JOIN variants v ON v.product_id = p.id
      UNION SELECT v.id, v.product_id, v.internal_id FROM ${jsonKeys(nestedInternalIds)} AS n
        CROSS JOIN variants v ON v.internal_id = n.value`,
    sql`SELECT t.product_id, t.locale FROM ${matched} CROSS JOIN product_translations t ON t.product_id = p.id`,
    sql`
      SELECT t.locale, t.slug FROM json_each(${JSON.stringify(slugStems)}) AS j
      CROSS JOIN product_translations t ON t.locale = json_extract(j.value, '$.locale')
        AND t.slug >= json_extract(j.value, '$.base') AND t.slug < json_extract(j.value, '$.base') || '.'
        AND (t.slug = json_extract(j.value, '$.base')
          OR ltrim(substr(t.slug, length(json_extract(j.value, '$.base')) + 2), '0123456789') = '')`,
    sql`SELECT (SELECT MAX(id) FROM products) AS products, (SELECT MAX(id) FROM variants) AS variants`,
    sql`SELECT vp.variant_id, vp.market FROM ${matched} CROSS JOIN variants v ON v.product_id = p.id
      CROSS JOIN variant_prices vp ON vp.variant_id = v.id`,
  ]);
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
  const products = rows<ExistingProduct>(0);
  const references = rows<{ kind: string; id: number }>(1);
  const variants = rows<ExistingVariant>(2);
  const locales = rows<{ product_id: number; locale: string }>(3);
  const slugs = rows<{ locale: string; slug: string }>(4);
  const maxima = rows<{ products: number | null; variants: number | null }>(5);
  const prices = rows<{ variant_id: number; market: string }>(6);
  const markets = new Map<number, Set<string>>();
  for (const p of prices) markets.set(p.variant_id, (markets.get(p.variant_id) ?? new Set()).add(p.market));
  const takenSlugs = new Map<string, Set<string>>();
  for (const s of slugs) takenSlugs.set(s.locale, (takenSlugs.get(s.locale) ?? new Set()).add(s.slug));
  return {
    products,
    references: new Set(references.map((r) => `${r.kind}:${r.id}`)),
    variants,
    locales,
    takenSlugs,
    markets,
    maxProductId: maxima[0]?.products ?? 0,
    maxVariantId: maxima[0]?.variants ?? 0,
  };
}
