import type { BatchItem } from "drizzle-orm/batch";
import { generationBump } from "../../../src/db/cache-generations.ts";
import {
  brands,
  categories,
  categoryTranslations,
  productCategories,
  productImages,
  products,
  productTranslations,
  type STOCK_MANAGEMENT_MODES,
  suppliers,
  variantPrices,
  variants,
  variantTranslations,
} from "../../../src/db/schema/index.ts";
import { forgetGenerations } from "../../../src/edge/generations.ts";
import { testDb } from "../test-db.ts";

/**
 * Direct-to-D1 factories for resources that have no synchronous create route (products, variants):
 * they write storage rows exactly as the bulk jobs will, with the bump of the catalog's edge cache
 * generation in the same batch.
 */
// Ids increase in creation order (storage is per test file), far above ids the API assigns.
let seq = 1_000_000;
const next = () => ++seq;

interface VariantSpec {
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

interface ProductSpec {
  internalId?: string | null;
  status?: "published" | "unpublished";
  structure?: "simple" | "with-variants";
  brandId?: number | null;
  supplierId?: number | null;
  categoryIds?: number[];
  stockManagement?: (typeof STOCK_MANAGEMENT_MODES)[number];
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
  const db = testDb();
  const id = next();
  const variantSpecs = spec.variants ?? [{}];
  const names = spec.names ?? { "es-ES": `Producto ${id}` };
  const writes: BatchItem<"sqlite">[] = [];
  for (const [locale, name] of Object.entries(names)) {
    const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id}`;
    writes.push(
      db
        .insert(productTranslations)
        .values({ productId: id, locale, name, slugBase: slug, slug, description: `Desc ${locale}` }),
    );
  }
  (spec.categoryIds ?? []).forEach((categoryId, position) => {
    writes.push(db.insert(productCategories).values({ productId: id, categoryId, position }));
  });
  (spec.images ?? []).forEach((url, position) => {
    writes.push(db.insert(productImages).values({ productId: id, url, position }));
  });
  const variantIds: number[] = [];
  variantSpecs.forEach((v, position) => {
    const vid = next();
    variantIds.push(vid);
    writes.push(
      db.insert(variants).values({
        id: vid,
        productId: id,
        supplierId: spec.supplierId ?? null,
        internalId: v.internalId === undefined ? `V-${vid}` : v.internalId,
        sku: v.sku ?? `SKU-${vid}`,
        ean: v.ean === undefined ? `84${vid}` : v.ean,
        status: v.status ?? "published",
        warehouseStock: v.warehouseStock ?? 5,
        supplierStock: v.supplierStock ?? 3,
        costPriceAmount: v.costPrice === undefined ? "4.00" : v.costPrice,
        costPriceCurrency: v.costPrice === null ? null : "EUR",
        position,
      }),
    );
    for (const [locale, name] of Object.entries(v.names ?? { "es-ES": `Variante ${vid}` })) {
      writes.push(db.insert(variantTranslations).values({ variantId: vid, locale, name }));
    }
    for (const [market, p] of Object.entries(v.prices ?? { market_es: { list: "10.00" } })) {
      writes.push(
        db.insert(variantPrices).values({
          variantId: vid,
          market,
          currency: CURRENCY[market] ?? "EUR",
          listPrice: p.list,
          offerPrice: p.offer ?? null,
          flashPrice: p.flash?.price ?? null,
          flashValidFrom: p.flash?.from ?? null,
          flashValidUntil: p.flash?.until ?? null,
        }),
      );
    }
  });
  await db.batch([
    db.insert(products).values({
      id,
      internalId: spec.internalId === undefined ? `P-${id}` : spec.internalId,
      productStructure: spec.structure ?? (variantSpecs.length > 1 ? "with-variants" : "simple"),
      status: spec.status ?? "published",
      productKind: "physical",
      stockManagement: spec.stockManagement ?? "default",
      taxCategory: "standard",
      modelCode: `MC-${id}`,
      supplierId: spec.supplierId ?? null,
      brandId: spec.brandId ?? null,
      createdAt: spec.createdAt ?? "2026-01-10T10:00:00Z",
      updatedAt: spec.updatedAt ?? "2026-01-10T10:00:00Z",
    }),
    ...writes,
    generationBump(db, ["products"]),
  ]);
  forgetGenerations();
  return { id, variantIds };
}

export async function createCategoryRow(parentId: number | null = null, name?: string) {
  const db = testDb();
  const id = next();
  await db.batch([
    db.insert(categories).values({ id, parentId, status: "published" }),
    db
      .insert(categoryTranslations)
      .values({ categoryId: id, locale: "es-ES", name: name ?? `Cat ${id}`, slug: `cat-${id}` }),
    generationBump(db, ["categories"]),
  ]);
  forgetGenerations();
  return id;
}

export async function createBrandRow(name?: string) {
  const id = next();
  const db = testDb();
  await db.batch([
    db.insert(brands).values({ id, name: name ?? `Brand ${id}`, slug: `brand-${id}` }),
    generationBump(db, ["brands"]),
  ]);
  forgetGenerations();
  return id;
}

export async function createSupplierRow(internalId?: string) {
  const id = next();
  const db = testDb();
  await db.batch([
    db.insert(suppliers).values({ id, name: `Supplier ${id}`, internalId: internalId ?? `SUP-${id}` }),
    generationBump(db, ["suppliers"]),
  ]);
  forgetGenerations();
  return id;
}
