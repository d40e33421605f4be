import { env } from "cloudflare:test";

/**
 * Direct-to-D1 factories for resources that have no synchronous create route (products, variants):
 * they write storage rows exactly as the bulk jobs will.
 */
// Ids increase in creation order (storage is per test file), far above ids the API assigns.
let seq = 1_000_000;
const next = () => ++seq;

export interface VariantSpec {
  sku?: string;
  ean?: string | null;
  internalId?: string | null;
  status?: "published" | "unpublished";
  warehouseStock?: number;
  supplierStock?: number;
  names?: Record<string, string>;
  prices?: Record<
    string,
    { list: string; offer?: string | null; flash?: { price: string; from: string; until: string } | null }
  >;
  costPrice?: string | null;
}

export interface ProductSpec {
  internalId?: string | null;
  status?: "published" | "unpublished";
  structure?: "simple" | "with-variants";
  brandId?: number | null;
  supplierId?: number | null;
  categoryIds?: number[];
  stockManagement?: string;
  names?: Record<string, string>;
  images?: string[];
  createdAt?: string;
  updatedAt?: string;
  variants?: VariantSpec[];
}

const CURRENCY: Record<string, string> = {
  market_es: "EUR",
  market_fr: "EUR",
  market_de: "EUR",
  market_it: "EUR",
  market_pt: "EUR",
  market_en: "GBP",
  market_ru: "RUB",
};

export async function createProduct(spec: ProductSpec = {}) {
  const id = next();
  const variants = spec.variants ?? [{}];
  const names = spec.names ?? { "es-ES": `Producto ${id}` };
  const stmts: D1PreparedStatement[] = [
    env.DB.prepare(
      `INSERT INTO products (id, internal_id, product_structure, status, product_kind, stock_management, tax_category, model_code, supplier_id, brand_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'physical', ?, 'standard', ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      spec.internalId === undefined ? `P-${id}` : spec.internalId,
      spec.structure ?? (variants.length > 1 ? "with-variants" : "simple"),
      spec.status ?? "published",
      spec.stockManagement ?? "default",
      `MC-${id}`,
      spec.supplierId ?? null,
      spec.brandId ?? null,
      spec.createdAt ?? "2026-01-10T10:00:00Z",
      spec.updatedAt ?? "2026-01-10T10:00:00Z",
    ),
  ];
  for (const [locale, name] of Object.entries(names)) {
    const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id}`;
    stmts.push(
      env.DB.prepare(
        "INSERT INTO product_translations (product_id, locale, name, slug_base, slug, description) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(id, locale, name, slug, slug, `Desc ${locale}`),
    );
  }
  (spec.categoryIds ?? []).forEach((categoryId, position) => {
    stmts.push(
      env.DB.prepare(
        "INSERT INTO product_categories (product_id, category_id, position) VALUES (?, ?, ?)",
      ).bind(id, categoryId, position),
    );
  });
  (spec.images ?? []).forEach((url, position) => {
    stmts.push(
      env.DB.prepare("INSERT INTO product_images (product_id, url, position) VALUES (?, ?, ?)").bind(
        id,
        url,
        position,
      ),
    );
  });
  const variantIds: number[] = [];
  variants.forEach((v, position) => {
    const vid = next();
    variantIds.push(vid);
    stmts.push(
      env.DB.prepare(
        `INSERT INTO variants (id, product_id, supplier_id, internal_id, sku, ean, status, warehouse_stock, supplier_stock, cost_price_amount, cost_price_currency, position)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        vid,
        id,
        spec.supplierId ?? null,
        v.internalId === undefined ? `V-${vid}` : v.internalId,
        v.sku ?? `SKU-${vid}`,
        v.ean === undefined ? `84${vid}` : v.ean,
        v.status ?? "published",
        v.warehouseStock ?? 5,
        v.supplierStock ?? 3,
        v.costPrice === undefined ? "4.00" : v.costPrice,
        v.costPrice === null ? null : "EUR",
        position,
      ),
    );
    for (const [locale, name] of Object.entries(v.names ?? { "es-ES": `Variante ${vid}` })) {
      stmts.push(
        env.DB.prepare("INSERT INTO variant_translations (variant_id, locale, name) VALUES (?, ?, ?)").bind(
          vid,
          locale,
          name,
        ),
      );
    }
    for (const [market, p] of Object.entries(v.prices ?? { market_es: { list: "10.00" } })) {
      stmts.push(
        env.DB.prepare(
          `INSERT INTO variant_prices (variant_id, market, currency, list_price, offer_price, flash_price, flash_valid_from, flash_valid_until)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).bind(
          vid,
          market,
          CURRENCY[market] ?? "EUR",
          p.list,
          p.offer ?? null,
          p.flash?.price ?? null,
          p.flash?.from ?? null,
          p.flash?.until ?? null,
        ),
      );
    }
  });
  await env.DB.batch(stmts);
  return { id, variantIds };
}

export async function createCategoryRow(parentId: number | null = null, name?: string) {
  const id = next();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO categories (id, parent_id, status) VALUES (?, ?, 'published')").bind(
      id,
      parentId,
    ),
    env.DB.prepare(
      "INSERT INTO category_translations (category_id, locale, name, slug) VALUES (?, 'es-ES', ?, ?)",
    ).bind(id, name ?? `Cat ${id}`, `cat-${id}`),
  ]);
  return id;
}

export async function createBrandRow(name?: string) {
  const id = next();
  await env.DB.prepare("INSERT INTO brands (id, name, slug) VALUES (?, ?, ?)")
    .bind(id, name ?? `Brand ${id}`, `brand-${id}`)
    .run();
  return id;
}

export async function createSupplierRow(internalId?: string) {
  const id = next();
  await env.DB.prepare("INSERT INTO suppliers (id, name, internal_id) VALUES (?, ?, ?)")
    .bind(id, `Supplier ${id}`, internalId ?? `SUP-${id}`)
    .run();
  return id;
}
