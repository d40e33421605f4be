import { type SQL, sql } from "drizzle-orm";
import type { ExportBounds, ExportRow } from "../../async/exports/operation.ts";
import { MARKET_KEYS, SUPPORTED_LOCALES } from "../../lib/locales.ts";
import { money } from "../../lib/money.ts";

/*
 * The variants of a page of products as export records: the variants update record (and the
 * nested variant of a products upsert), with every field a push can write back unchanged.
 */

/** A page's variants, their translations and prices: three statements, each driven by the page's product ids. */
export function variantStatements(page: SQL, bounds: ExportBounds): SQL[] {
  const variantsOfPage = sql`(${page}) AS page CROSS JOIN variants v ON v.product_id = page.id`;
  const known = sql`v.id <= ${bounds.variant ?? 0}`;
  return [
    sql`SELECT v.id, v.product_id, v.internal_id, v.sku, v.ean, v.status, v.min_quantity, v.quantity_factor,
          v.supplier_stock, v.warehouse_stock, v.cost_price_amount, v.cost_price_currency, v.position
        FROM ${variantsOfPage} WHERE ${known}`,
    sql`SELECT t.variant_id, t.locale, t.name
        FROM ${variantsOfPage} CROSS JOIN variant_translations t ON t.variant_id = v.id WHERE ${known}`,
    sql`SELECT p.variant_id, p.market, p.currency, p.list_price, p.offer_price, p.flash_price,
          p.flash_valid_from, p.flash_valid_until
        FROM ${variantsOfPage} CROSS JOIN variant_prices p ON p.variant_id = v.id WHERE ${known}`,
  ];
}

export const variantBound = sql`SELECT coalesce(max(id), 0) AS variant FROM variants`;

/** Rows of `rows` grouped by the value of `key`. */
export function groupBy(rows: ExportRow[], key: string): Map<unknown, ExportRow[]> {
  const groups = new Map<unknown, ExportRow[]>();
  for (const row of rows) {
    const group = groups.get(row[key]);
    if (group) group.push(row);
    else groups.set(row[key], [row]);
  }
  return groups;
}

/**
 * Translations by locale, in the order their rows came (the translation table's key, by locale);
 * `fields` are each entry's columns. Plain loops: it runs for every product and variant exported.
 */
export function translationsOf(rows: ExportRow[] | undefined, fields: readonly string[]) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const row of rows ?? []) {
    const entry: Record<string, unknown> = {};
    for (const f of fields) entry[f] = row[f] ?? null;
    out[row.locale as string] = entry;
  }
  return out;
}

function pricesOf(rows: ExportRow[] | undefined) {
  const prices: Record<string, unknown> = {};
  for (const key of MARKET_KEYS) {
    const row = rows?.find((r) => r.market === key);
    if (!row) continue;
    const currency = row.currency as string;
    const flash = row.flash_price as string | null;
    prices[key] = {
      list_price: money(row.list_price as string, currency),
      offer_price: money(row.offer_price as string | null, currency),
      flash_offer:
        flash !== null && row.flash_valid_from && row.flash_valid_until
          ? {
              price: money(flash, currency),
              valid_from: row.flash_valid_from,
              valid_until: row.flash_valid_until,
            }
          : null,
    };
  }
  return prices;
}

/** The records of a page's variants by product id, each product's in its variants' order (position, id). */
export function variantRecords(rows: ExportRow[][]): Map<number, Record<string, unknown>[]> {
  const [variants = [], translations = [], prices = []] = rows;
  const translationsOfVariant = groupBy(translations, "variant_id");
  const pricesOfVariant = groupBy(prices, "variant_id");
  const sorted = [...variants].sort(
    (a, b) =>
      (a.product_id as number) - (b.product_id as number) ||
      (a.position as number) - (b.position as number) ||
      (a.id as number) - (b.id as number),
  );
  const out = new Map<number, Record<string, unknown>[]>();
  for (const v of sorted) {
    const record: Record<string, unknown> = {
      id: v.id,
      internal_id: v.internal_id,
      // A variant without a SKU (none is written without one) leaves it out: the record takes no null.
      ...(v.sku === null ? {} : { sku: v.sku }),
      ean: v.ean,
      status: v.status,
      min_quantity: v.min_quantity,
      quantity_factor: v.quantity_factor,
      supplier_stock: v.supplier_stock,
      warehouse_stock: v.warehouse_stock,
      cost_price: money(v.cost_price_amount as string | null, v.cost_price_currency as string | null),
      prices: pricesOf(pricesOfVariant.get(v.id)),
      translations: translationsOf(translationsOfVariant.get(v.id), ["name"]),
    };
    const productId = v.product_id as number;
    const list = out.get(productId);
    if (list) list.push(record);
    else out.set(productId, [record]);
  }
  return out;
}

const PRICE_COLUMNS = [
  "list_price.amount",
  "list_price.currency",
  "offer_price.amount",
  "offer_price.currency",
  "flash_offer.price.amount",
  "flash_offer.price.currency",
  "flash_offer.valid_from",
  "flash_offer.valid_until",
];

/** The CSV columns of a variant record: its fields, cost price, each market's price, each locale's name. */
export const VARIANT_CSV_COLUMNS = [
  "id",
  "internal_id",
  "sku",
  "ean",
  "status",
  "min_quantity",
  "quantity_factor",
  "supplier_stock",
  "warehouse_stock",
  "cost_price.amount",
  "cost_price.currency",
  ...MARKET_KEYS.flatMap((m) => PRICE_COLUMNS.map((c) => `prices.${m}.${c}`)),
  ...SUPPORTED_LOCALES.map((l) => `translations.${l}.name`),
];

/** How many variants (created before the export started) the products `rows` selects have. */
export const variantCount = (rows: SQL, bound: number) =>
  sql`SELECT count(*) AS n FROM (${rows}) AS page CROSS JOIN variants v ON v.product_id = page.id WHERE v.id <= ${bound}`;
