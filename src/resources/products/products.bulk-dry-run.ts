import { sql } from "drizzle-orm";
import { type DryRunMemory, layRememberedMarkets, rememberedRows } from "../../async/bulk/dry-run-memory.ts";
import { rawAll } from "../../db/raw.ts";
import {
  products as productsTable,
  productTranslations,
  variants as variantsTable,
} from "../../db/schema/index.ts";
import type { ExistingProduct, ExistingVariant, lookupProducts } from "./products.bulk-lookups.ts";
import type { ProductRecord } from "./products.bulk-record.ts";

type Found = Awaited<ReturnType<typeof lookupProducts>>;

/**
 * Lays what a dry run's earlier records wrote over what lookupProducts read, so that `found` is
 * what the same lookups answer in a real run, where those writes are committed: products created
 * before (matched again by `internal_id`) and their variants, translations, slugs and prices, the
 * structure and supplier earlier updates set, and the id maxima. A record of a products job never
 * changes the key of its own match (`id`, or the `internal_id` it is matched by), so the products
 * an earlier record created are the only ones a lookup by key could newly find.
 */
export async function layRememberedRows(
  d1: D1Database,
  found: Found,
  memory: DryRunMemory,
  matchBy: "id" | "internal_id",
  records: ProductRecord[],
) {
  const keys = new Set(records.map((r) => r[matchBy]).filter((k) => k != null));
  const products = rememberedRows(memory, productsTable, ["id"]);
  const matched = new Map<number, ExistingProduct>();
  for (const p of found.products) matched.set(p.id, { ...p, ...(products.get(String(p.id)) ?? {}) });
  for (const row of products.values()) {
    const product = row as Partial<ExistingProduct> | null;
    if (product?.id === undefined || matched.has(product.id) || product.product_structure === undefined)
      continue;
    found.maxProductId = Math.max(found.maxProductId, product.id);
    if (keys.has(product[matchBy] as string | number)) matched.set(product.id, product as ExistingProduct);
  }
  found.products = [...matched.values()].filter((p) => keys.has(p[matchBy] as string | number));
  const productIds = new Set(found.products.map((p) => p.id));

  const nested = new Set(records.flatMap((r) => (r.variants ?? []).map((v) => v.internal_id)));
  const variants = rememberedRows(memory, variantsTable, ["id"]);
  const seen = new Map<number, ExistingVariant>();
  for (const v of found.variants) seen.set(v.id, { ...v, ...(variants.get(String(v.id)) ?? {}) });
  // An existing variant an earlier record gave one of these internal ids: its product is read here.
  const renamed: number[] = [];
  for (const row of variants.values()) {
    const variant = row as Partial<ExistingVariant> | null;
    if (variant?.id === undefined) continue;
    found.maxVariantId = Math.max(found.maxVariantId, variant.id);
    if (seen.has(variant.id)) continue;
    if (variant.product_id !== undefined)
      seen.set(variant.id, { internal_id: null, ...variant } as ExistingVariant);
    else if (variant.internal_id != null && nested.has(variant.internal_id)) renamed.push(variant.id);
  }
  if (renamed.length > 0) {
    const rows = await rawAll<{ id: number; product_id: number }>(
      d1,
      sql`SELECT id, product_id FROM variants WHERE id IN (SELECT value FROM json_each(${JSON.stringify(renamed)}))`,
    );
    for (const r of rows)
      seen.set(r.id, { ...r, internal_id: variants.get(String(r.id))?.internal_id as string });
  }
  found.variants = [...seen.values()].filter(
    (v) => productIds.has(v.product_id) || (v.internal_id !== null && nested.has(v.internal_id)),
  );

  const locales = new Map(found.locales.map((l) => [`${l.product_id}\u0000${l.locale}`, l]));
  for (const [key, row] of rememberedRows(memory, productTranslations, ["product_id", "locale"])) {
    const [product, locale] = key.split("\u0000") as [string, string];
    if (row === null) locales.delete(key);
    else locales.set(key, { product_id: Number(product), locale });
    const slug = row?.slug as string | undefined;
    if (slug) found.takenSlugs.set(locale, (found.takenSlugs.get(locale) ?? new Set()).add(slug));
  }
  found.locales = [...locales.values()].filter((l) => productIds.has(l.product_id));
  layRememberedMarkets(memory, found.markets);
}
