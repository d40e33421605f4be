import { type SQL, sql } from "drizzle-orm";
import type { ExportRow } from "../../async/exports/operation.ts";
import { MARKET_KEYS, SUPPORTED_LOCALES } from "../../lib/locales.ts";
import { productResource } from "../products/products.resource.ts";

/*
 * A variant as an export record, built by SQLite as JSON text in parts the Worker joins: the
 * variants update record (and the nested variant of a products upsert) with every field a push can
 * write back unchanged. Amounts are written as stored (writers store them at 2 decimals). The parts
 * are joined as text, never nested as JSON values: a JSON value crossing a subquery is only text.
 */

const KNOWN_MARKETS = sql.raw(MARKET_KEYS.map((m) => `'${m}'`).join(", "));

/** `{"amount", "currency"}` of an amount column, or null where it is null. */
const money = (amount: SQL, currency: SQL) =>
  sql`CASE WHEN ${amount} IS NOT NULL AND ${currency} <> '' THEN json_object('amount', ${amount}, 'currency', ${currency}) END`;

const FIELDS = sql`'id', v.id, 'internal_id', v.internal_id, 'ean', v.ean, 'status', v.status,
  'min_quantity', v.min_quantity, 'quantity_factor', v.quantity_factor,
  'supplier_stock', v.supplier_stock, 'warehouse_stock', v.warehouse_stock,
  'cost_price', ${money(sql`v.cost_price_amount`, sql`v.cost_price_currency`)}`;

/**
 * The parts of the record of the variant `v`: its fields (`head`; a null `sku` left out, the record
 * takes none), its `prices` in each known market it has one (by market; `+` keeps the search to the
 * variant's few rows) and its `translations` (by locale).
 */
const variantParts = sql`v.product_id,
  CASE WHEN v.sku IS NULL THEN json_object(${FIELDS}) ELSE json_object(${FIELDS}, 'sku', v.sku) END AS head,
  (SELECT json_group_object(vp.market, json_object(
      'list_price', ${money(sql`vp.list_price`, sql`vp.currency`)},
      'offer_price', ${money(sql`vp.offer_price`, sql`vp.currency`)},
      'flash_offer', CASE WHEN vp.flash_price IS NOT NULL AND vp.flash_valid_from IS NOT NULL AND vp.flash_valid_until IS NOT NULL
        THEN json_object('price', ${money(sql`vp.flash_price`, sql`vp.currency`)},
          'valid_from', vp.flash_valid_from, 'valid_until', vp.flash_valid_until) END))
    FROM variant_prices vp WHERE vp.variant_id = v.id AND +vp.market IN (${KNOWN_MARKETS})) AS prices,
  (SELECT json_group_object(vt.locale, json_object('name', vt.name))
    FROM variant_translations vt WHERE vt.variant_id = v.id) AS translations`;

/** The parts of a page's variants, by product (in page order), then position and id. */
export const variantRecords = (page: SQL, bounds: Record<string, number>) =>
  sql`SELECT ${variantParts}
      FROM (${page}) AS page CROSS JOIN variants v ON v.product_id = page.id
      WHERE v.id <= ${bounds.variant ?? 0} ORDER BY page.id, v.position, v.id`;

/** A variant's record from its parts: `{…head, "prices": …, "translations": …}`. */
export const variantLine = (row: ExportRow) =>
  `${(row.head as string).slice(0, -1)},"prices":${row.prices as string},"translations":${row.translations as string}}`;

/** Rows of `rows` grouped by the value of `key`, in their order. */
export function groupBy(rows: ExportRow[], key: string): Map<unknown, ExportRow[]> {
  const groups = new Map<unknown, ExportRow[]>();
  for (const row of rows) {
    const group = groups.get(row[key]);
    if (group) group.push(row);
    else groups.set(row[key], [row]);
  }
  return groups;
}

const variantBound = sql`SELECT coalesce(max(id), 0) AS variant FROM variants`;

/**
 * What the catalog's exports share: `POST /api/v1/<name>/export` starts a `<name>_export` job; the
 * products' filters select its rows (a variants export writes the variants of the matching
 * products), and variants created after it started are left out.
 */
export function catalogExport<Tag extends "Products" | "Variants">(tag: Tag) {
  const name = tag.toLowerCase() as Lowercase<Tag>;
  return {
    type: `${name}_export` as const,
    route: { path: `/api/v1/${name}/export`, operationId: `export${tag}`, tag },
    summary: `Export ${name} (asynchronous)`,
    resource: productResource,
    bounds: variantBound,
  };
}

/** How many variants (created before the export started) the products `rows` selects have. */
export const variantCount = (rows: SQL, bound: number) =>
  sql`SELECT count(*) AS n FROM (${rows}) AS page CROSS JOIN variants v ON v.product_id = page.id WHERE v.id <= ${bound}`;

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
