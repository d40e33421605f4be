import { PRODUCT_TABLES } from "../db/schema/catalog.ts";
import { type Locale, MARKETS, SUPPORTED_LOCALES } from "../lib/locales.ts";
import { SLUG_MAX_LENGTH, slugify } from "../lib/slug.ts";
import { brandCount } from "./brands.ts";
import {
  COLORS,
  DESCRIPTION,
  type Family,
  LINES,
  PRODUCT_TYPES,
  type ProductType,
  typeName,
} from "./catalog-text.ts";
import { categoryCount, categoryStatements } from "./categories.ts";
import { seedTime } from "./clock.ts";
import { isSimpleProduct, productCount, variantIdsOfProduct } from "./layout.ts";
import { type Rng, rngFor } from "./rng.ts";
import { insertTables, type SeedStatement, type SqlValue, tableRows } from "./sql.ts";
import { STORE_IDENTITY } from "./store.ts";
import { supplierCount } from "./suppliers.ts";

export interface ProductSeedOptions {
  /**
   * Names (and slugs) in all 14 locales for every product and variant, on top of the product's
   * content locales. Default: on from scale 100 (the benchmark catalog), off below.
   */
  allLocales?: boolean;
}

/** Flash-offer windows (YYYY-MM-DD, inclusive): one running until 2099, one not started, one over. */
export const FLASH_WINDOWS = {
  active: { from: "2025-12-01", until: "2099-12-31" },
  future: { from: "2099-06-01", until: "2099-06-30" },
  expired: { from: "2020-11-27", until: "2020-11-30" },
} as const;
export type FlashKind = keyof typeof FLASH_WINDOWS;

/** Which flash offer a product's variants carry (in every market they are priced in), by id. */
export function flashKindOfProduct(productId: number): FlashKind | null {
  switch (productId % 12) {
    case 1:
    case 4:
      return "active";
    case 6:
      return "future";
    case 9:
      return "expired";
    default:
      return null;
  }
}

/** Products whose variants have no `market_ru` price (every other variant is priced in all 7 markets). */
export const lacksRussianPrice = (productId: number) => productId % 20 === 19;

/** The 13-digit EAN of a variant (prefix 84, the id, a GS1 check digit); some products reuse their predecessor's. */
function eanOf(variantId: number): string {
  const body = `84${String(variantId).padStart(10, "0")}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return body + String((10 - (sum % 10)) % 10);
}

// Demo rows of brands.ts and suppliers.ts (ids 1–12 and 1–8) that fit each family; used only
// when that id exists at the scale, otherwise a uniformly drawn brand or supplier.
const FAMILY_BRANDS: Record<Family, readonly number[]> = {
  apparel: [2, 7, 12],
  accessories: [10, 2],
  footwear: [5, 10, 1],
  cycling: [8],
  mountain: [1, 3, 11],
  kitchen: [4],
  decor: [6, 2],
};
const FAMILY_SUPPLIERS: Record<Family, readonly number[]> = {
  apparel: [1, 5, 3],
  accessories: [1, 5],
  footwear: [4, 3],
  cycling: [8, 3],
  mountain: [6],
  kitchen: [7, 3],
  decor: [2],
};

/** Content locales: always the primary and en-GB, fr-FR/de-DE for most, a few more for some. */
const LOCALE_CHANCES: readonly [Locale, number][] = [
  ["fr-FR", 0.9],
  ["de-DE", 0.9],
  ["it-IT", 0.4],
  ["pt-PT", 0.4],
  ["ca-ES", 0.25],
];

/** Reads the template of categories.ts (its scale-1 rows): leaves by es-ES name, and parents. */
interface CategoryTemplate {
  size: number;
  parentIndex: (number | null)[];
  leafIndexesByName: Map<string, number[]>;
  leafIndexes: number[];
  outletIndex: number | undefined;
}

function statementRows(statements: readonly SeedStatement[], table: string): Record<string, SqlValue>[] {
  const rows: Record<string, SqlValue>[] = [];
  const head = `INSERT INTO "${table}" (`;
  for (const s of statements) {
    if (!s.sql.startsWith(head)) continue;
    const columns = s.sql
      .slice(head.length, s.sql.indexOf(")"))
      .split(", ")
      .map((c) => c.replace(/^"|"$/g, ""));
    for (let i = 0; i < s.params.length; i += columns.length) {
      rows.push(Object.fromEntries(columns.map((c, j) => [c, s.params[i + j] ?? null])));
    }
  }
  return rows;
}

function categoryTemplate(): CategoryTemplate {
  const statements = categoryStatements(1);
  const size = categoryCount(1);
  const categories = statementRows(statements, "categories");
  const parentIndex: (number | null)[] = Array.from({ length: size }, () => null);
  const hasChild = new Set<number>();
  for (const row of categories) {
    const index = Number(row.id) - 1;
    const parent = row.parent_id === null ? null : Number(row.parent_id) - 1;
    parentIndex[index] = parent;
    if (parent !== null) hasChild.add(parent);
  }
  const leafIndexesByName = new Map<string, number[]>();
  const leafIndexes: number[] = [];
  let outletIndex: number | undefined;
  for (const row of statementRows(statements, "category_translations")) {
    if (row.locale !== "es-ES") continue;
    const index = Number(row.category_id) - 1;
    if (hasChild.has(index)) continue;
    const name = String(row.name);
    leafIndexes.push(index);
    leafIndexesByName.set(name, [...(leafIndexesByName.get(name) ?? []), index]);
    if (name === "Outlet") outletIndex = index;
  }
  return { size, parentIndex, leafIndexesByName, leafIndexes, outletIndex };
}

/**
 * Unique generated slugs within one locale, exactly as the writer allocates them (`base`, `base-2`,
 * `base-3`, … first free), remembering the next suffix per base so thousands of equal names stay linear.
 */
function slugAllocator() {
  const used = new Set<string>();
  const nextSuffix = new Map<string, number>();
  return (base: string): string => {
    const last = nextSuffix.get(base);
    let slug = base;
    let n = last ?? 1;
    if (last !== undefined || used.has(base)) {
      do {
        n++;
        const suffix = `-${n}`;
        const room = SLUG_MAX_LENGTH - suffix.length;
        slug = (base.length > room ? base.slice(0, room).replace(/-+$/g, "") : base) + suffix;
      } while (used.has(slug));
    }
    nextSuffix.set(base, n);
    used.add(slug);
    return slug;
  };
}

interface LocalizedText {
  name: string;
  slugBase: string;
  description: string;
  bodyHtml: string;
  metaTitle: string;
}

/** Names and the texts derived from them, computed once per (type, attribute, line, locale). */
function localizedTexts() {
  const cache = new Map<number, LocalizedText>();
  return (typeIndex: number, attributeIndex: number, lineIndex: number, localeIndex: number) => {
    const key = ((typeIndex * 16 + attributeIndex) * 64 + lineIndex) * 16 + localeIndex;
    let text = cache.get(key);
    if (!text) {
      const type = PRODUCT_TYPES[typeIndex];
      const attribute = type?.attributes[attributeIndex];
      const locale = SUPPORTED_LOCALES[localeIndex];
      if (!type || !attribute || !locale) throw new Error("unreachable");
      const name = `${typeName(type, attribute, locale)} ${LINES[lineIndex]}`;
      const description = DESCRIPTION[locale].replace("{name}", name);
      text = {
        name,
        slugBase: slugify(name),
        description,
        bodyHtml: `<p>${escapeHtml(description)}</p>`,
        metaTitle: `${name} | ${STORE_IDENTITY[locale].name}`,
      };
      cache.set(key, text);
    }
    return text;
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const pad = (n: number, width: number) => String(n).padStart(width, "0");
/** Integer cents as a decimal string with 2 decimals. */
const amount = (cents: number) => `${Math.floor(cents / 100)}.${pad(cents % 100, 2)}`;

/** A market's list price from the EUR one: EUR markets equal, GBP ending in .99, RUB in whole tens. */
function marketCents(currency: string, eurCents: number): number {
  if (currency === "GBP") return Math.max(99, Math.round((eurCents * 87) / 10_000) * 100 - 1);
  if (currency === "RUB") return Math.max(1000, Math.round((eurCents * 95) / 1000) * 1000);
  return eurCents;
}

/** The variants' options: one colour in k sizes, two colours in two sizes, or k colours. */
function variantOptions(rng: Rng, type: ProductType, k: number): { color: number; size: string | null }[] {
  const colors = [...type.colors];
  const takeColor = () => colors.splice(rng.int(0, colors.length - 1), 1)[0] ?? 0;
  const { sizes } = type;
  if (sizes.length === 0) return Array.from({ length: k }, () => ({ color: takeColor(), size: null }));
  if (k === 1) return [{ color: takeColor(), size: null }];
  if (sizes.length >= k && (k < 4 || rng.chance(0.5))) {
    const color = takeColor();
    const start = rng.int(0, sizes.length - k);
    return sizes.slice(start, start + k).map((size) => ({ color, size }));
  }
  const start = rng.int(0, sizes.length - 2);
  const pair = sizes.slice(start, start + 2);
  const options: { color: number; size: string | null }[] = [];
  while (options.length < k) {
    const color = takeColor();
    for (const size of pair) if (options.length < k) options.push({ color, size });
  }
  return options;
}

/**
 * Products with their translations, images, categories, variants (with translations) and market
 * prices, ids per layout.ts. Statements bind fewer than 100 parameters each, parents first; the
 * same scale and options always give the same statements; work is linear in the product count.
 */
export function productStatements(scale: number, options: ProductSeedOptions = {}): SeedStatement[] {
  const allLocales = options.allLocales ?? scale >= 100;
  const rng = rngFor("products");
  const variantRng = rngFor("variants");
  const priceRng = rngFor("variant-prices");

  const count = productCount(scale);
  const brands = brandCount(scale);
  const suppliers = supplierCount(scale);
  const categories = categoryCount(scale);
  const template = categoryTemplate();
  const copies = Math.ceil(categories / template.size);
  const slugOf = new Map(SUPPORTED_LOCALES.map((locale) => [locale, slugAllocator()]));
  const textOf = localizedTexts();

  const rows = tableRows(...PRODUCT_TABLES);

  const namesakes = new Map<number, [number, number, number]>();
  let previous: { supplierId: number | null; sku: string; ean: string } | null = null;

  for (let p = 1; p <= count; p++) {
    let typeIndex = rng.int(0, PRODUCT_TYPES.length - 1);
    let attributeIndex = rng.int(0, (PRODUCT_TYPES[typeIndex]?.attributes.length ?? 1) - 1);
    let lineIndex = rng.int(0, LINES.length - 1);
    // Every 40th product repeats the name of the product 39 before it, so even the demo has slugs ending in -2.
    const namesake = p % 40 === 0 ? namesakes.get(p - 39) : undefined;
    if (namesake) [typeIndex, attributeIndex, lineIndex] = namesake;
    if (p % 40 === 1) namesakes.set(p, [typeIndex, attributeIndex, lineIndex]);
    const type = PRODUCT_TYPES[typeIndex];
    if (!type) throw new Error("unreachable");
    const created = seedTime(120 + p * 3);
    const updated = rng.chance(0.3) ? seedTime(120 + p * 3 + 60 * 24 * rng.int(1, 90)) : created;
    const modelCode = `${type.code}-${pad(p, 5)}`;

    // Relations.
    const familyBrands = FAMILY_BRANDS[type.family].filter((id) => id <= brands);
    let brandId: number | null =
      familyBrands.length > 0 && rng.chance(0.6) ? rng.pick(familyBrands) : rng.int(1, brands);
    if (rng.chance(0.04)) brandId = null;
    const familySuppliers = FAMILY_SUPPLIERS[type.family].filter((id) => id <= suppliers);
    let supplierId: number | null =
      familySuppliers.length > 0 && rng.chance(0.5) ? rng.pick(familySuppliers) : rng.int(1, suppliers);
    if (rng.chance(0.08)) supplierId = null;
    // Every 25th product shares its first SKU (other case) with its predecessor: another supplier.
    const shareSku = p % 25 === 0 && previous !== null && previous.supplierId !== null && suppliers > 1;
    if (
      shareSku &&
      previous?.supplierId != null &&
      (supplierId === null || supplierId === previous.supplierId)
    )
      supplierId = (previous.supplierId % suppliers) + 1;

    const availability = rng.next();
    const pickupLikely = type.code === "BIK" || type.code === "TNT";
    rows.products.push({
      id: p,
      internal_id: rng.chance(0.9) ? `PRD-${pad(p, 6)}` : null,
      product_structure: isSimpleProduct(p) ? "simple" : "with-variants",
      status: rng.chance(0.88) ? "published" : "unpublished",
      product_kind: "physical",
      stock_management: rng.chance(0.2) ? "deny-without-own-stock" : "default",
      online_availability:
        availability < (pickupLikely ? 0.4 : 0.1)
          ? "pickup-only"
          : availability > (pickupLikely ? 0.9 : 0.85)
            ? "shipping-only"
            : null,
      model_code: modelCode,
      tax_category: rng.chance(0.15) ? "reduced" : "standard",
      supplier_id: supplierId,
      brand_id: brandId,
      created_at: created,
      updated_at: updated,
    });

    // Categories: a leaf of the type's (main, position 0), maybe its sibling leaf or parent, maybe Outlet.
    const copy = (p - 1) % copies;
    const idOf = (index: number) => copy * template.size + index + 1;
    const exists = (index: number) => idOf(index) <= categories;
    let candidates = type.leaves.flatMap((name) => template.leafIndexesByName.get(name) ?? []).filter(exists);
    if (candidates.length === 0) candidates = template.leafIndexes.filter(exists);
    const chosen: number[] = [];
    if (candidates.length > 0) {
      const main = rng.pick(candidates);
      chosen.push(idOf(main));
      const others = candidates.filter((i) => i !== main);
      const parent = template.parentIndex[main];
      if (rng.chance(0.4)) {
        if (others.length > 0) chosen.push(idOf(rng.pick(others)));
        else if (parent != null && exists(parent)) chosen.push(idOf(parent));
      }
      const outlet = template.outletIndex;
      if (rng.chance(0.12) && outlet !== undefined && exists(outlet) && !chosen.includes(idOf(outlet)))
        chosen.push(idOf(outlet));
    } else {
      chosen.push(rng.int(1, categories));
    }
    chosen.forEach((categoryId, position) => {
      rows.product_categories.push({ product_id: p, category_id: categoryId, position });
    });

    // Images: 0–3, ids 4(p-1)+1… like variants, positions 0..n-1.
    const roll = rng.next();
    const images = roll < 0.1 ? 0 : roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
    for (let n = 0; n < images; n++) {
      rows.product_images.push({
        id: 4 * (p - 1) + n + 1,
        product_id: p,
        url: `https://images.example-shop.test/p/${p}-${n + 1}.jpg`,
        position: n,
      });
    }

    // Locales: content (name, slugs, description, meta) in the product's locales; names only in the rest.
    const content = new Set<Locale>(["es-ES", "en-GB"]);
    for (const [locale, chance] of LOCALE_CHANCES) if (rng.chance(chance)) content.add(locale);
    const locales = SUPPORTED_LOCALES.filter((l) => allLocales || content.has(l));
    const withBody = rng.chance(0.5);
    const withLongName = rng.chance(0.3);
    for (const locale of locales) {
      const text = textOf(typeIndex, attributeIndex, lineIndex, SUPPORTED_LOCALES.indexOf(locale));
      const slugBase = text.slugBase || `product-${p}`;
      const allocate = slugOf.get(locale);
      if (!allocate) throw new Error("unreachable");
      const full = content.has(locale);
      rows.product_translations.push({
        product_id: p,
        locale,
        name: text.name,
        slug_base: slugBase,
        slug: allocate(slugBase),
        description: full ? text.description : null,
        body_html: full && withBody ? text.bodyHtml : null,
        long_name: full && withLongName ? `${text.name} (${modelCode})` : null,
        meta_title: full ? text.metaTitle : null,
        meta_description: full ? text.description : null,
      });
    }

    // Variants.
    const ids = variantIdsOfProduct(p);
    const variantOptionsList = variantOptions(variantRng, type, ids.length);
    const { low, high } = type.priceCents;
    const baseCents = variantRng.int(Math.floor(low / 100), Math.floor(high / 100)) * 100 + (low % 100);
    const sizeStep = type.family === "kitchen" || type.code === "BPK" ? 500 : 0;
    const packRoll = variantRng.next();
    const pack = packRoll < 0.9 ? 1 : packRoll < 0.96 ? 2 : 6;
    const flash = flashKindOfProduct(p);
    const offers = MARKETS.map(() =>
      priceRng.chance(0.2) ? priceRng.pick([10, 15, 20, 25, 30] as const) : null,
    );

    for (let position = 0; position < ids.length; position++) {
      const variantId = ids[position] ?? 0;
      const option = variantOptionsList[position] ?? { color: 0, size: null };
      const color = COLORS[option.color] ?? COLORS[0];
      if (!color) throw new Error("unreachable");
      const sizeCode = option.size ? `-${option.size.replace(/\s+/g, "")}` : "";
      let sku = `${modelCode}-${color.code}${sizeCode}`;
      let ean = eanOf(variantId);
      if (position === 0 && previous) {
        if (shareSku) sku = previous.sku.toLowerCase();
        if (p % 20 === 10) ean = previous.ean;
      }
      const sizeIndex = option.size ? type.sizes.indexOf(option.size) : 0;
      const listEur = baseCents + sizeStep * Math.max(0, sizeIndex);
      rows.variants.push({
        id: variantId,
        product_id: p,
        supplier_id: supplierId,
        internal_id: variantRng.chance(0.92) ? `VAR-${pad(variantId, 7)}` : null,
        sku,
        ean,
        status: variantRng.chance(0.94) ? "published" : "unpublished",
        min_quantity: pack,
        quantity_factor: pack,
        supplier_stock: supplierId === null || variantRng.chance(0.3) ? 0 : variantRng.int(5, 500),
        warehouse_stock: variantRng.chance(0.2) ? 0 : variantRng.int(1, 120),
        cost_price_amount: amount(Math.round((listEur * variantRng.int(40, 60)) / 100)),
        cost_price_currency: "EUR",
        position,
        created_at: created,
        updated_at: updated,
      });
      for (const locale of locales) {
        const colorName = color.names[locale];
        rows.variant_translations.push({
          variant_id: variantId,
          locale,
          name: option.size ? `${colorName} / ${option.size}` : colorName,
        });
      }
      for (let m = 0; m < MARKETS.length; m++) {
        const market = MARKETS[m];
        if (!market || (market.key === "market_ru" && lacksRussianPrice(p))) continue;
        const list = marketCents(market.currency, listEur);
        const discount = offers[m];
        const window = flash ? FLASH_WINDOWS[flash] : null;
        rows.variant_prices.push({
          variant_id: variantId,
          market: market.key,
          currency: market.currency,
          list_price: amount(list),
          offer_price: discount ? amount(Math.round((list * (100 - discount)) / 100)) : null,
          flash_price: window ? amount(Math.round((list * 65) / 100)) : null,
          flash_valid_from: window?.from ?? null,
          flash_valid_until: window?.until ?? null,
        });
      }
      if (position === 0) previous = { supplierId, sku, ean };
    }
  }

  return insertTables(rows);
}
