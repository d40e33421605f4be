import { and, eq, sql } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { loader } from "../../conventions/loader.ts";
import { defineResource, type RelatedOf, type RenderContext } from "../../conventions/resource.ts";
import { keyIn } from "../../conventions/sql.ts";
import { translatedColumn } from "../../conventions/translated-column.ts";
import { keyedColumns, tableColumns } from "../../db/keyed-columns.ts";
import { products, variantPrices, variants, variantTranslations } from "../../db/schema/index.ts";
import { MARKETS } from "../../lib/locales.ts";
import { type Money, money, storedMoney } from "../../lib/money.ts";
import { productIdParam, VariantSchema } from "./variants.schema.ts";

type VariantRow = typeof variants.$inferSelect;
type VariantTranslationRow = typeof variantTranslations.$inferSelect;
type PriceRow = typeof variantPrices.$inferSelect;

export interface MarketPrice {
  selling_price: Money | null;
  list_price: Money | null;
  offer_price: Money | null;
  flash_offer: { price: Money; valid_from: string; valid_until: string } | null;
}

/** The flash offer within its window (UTC dates, inclusive), else the offer price, else the list price. */
function sellingPrice(row: PriceRow, today: string): Money | null {
  const flashActive =
    row.flashPrice !== null &&
    row.flashValidFrom !== null &&
    row.flashValidUntil !== null &&
    row.flashValidFrom <= today &&
    today <= row.flashValidUntil;
  return money(flashActive ? row.flashPrice : (row.offerPrice ?? row.listPrice), row.currency);
}

function marketPrice(row: PriceRow, today: string): MarketPrice {
  const currency = row.currency;
  return {
    selling_price: sellingPrice(row, today),
    list_price: money(row.listPrice, currency),
    offer_price: money(row.offerPrice, currency),
    flash_offer:
      row.flashPrice !== null && row.flashValidFrom !== null && row.flashValidUntil !== null
        ? {
            price: storedMoney(row.flashPrice, currency),
            valid_from: row.flashValidFrom,
            valid_until: row.flashValidUntil,
          }
        : null,
  };
}

// A Set: the check runs for every price row of a page.
const KNOWN_MARKETS = new Set(MARKETS.map((m) => m.key));

const variantLoaders = {
  /** Each variant's price rows by market, for the markets of the request's locales. */
  prices: loader({
    query: (db, ids, ctx) =>
      db
        .select(tableColumns(variantPrices))
        .from(variantPrices)
        .where(and(ids.in(variantPrices.variantId), keyIn(variantPrices.market, ctx.markets))),
    collect: (rows) => {
      const out = new Map<number, Map<string, PriceRow>>();
      for (const row of rows) {
        if (!KNOWN_MARKETS.has(row.market)) continue;
        let byMarket = out.get(row.variantId);
        if (!byMarket) {
          byMarket = new Map();
          out.set(row.variantId, byMarket);
        }
        byMarket.set(row.market, row);
      }
      return out;
    },
  }),
  stockManagement: loader({
    query: (db, ids) =>
      db
        .select(keyedColumns({ id: variants.id, mode: products.stockManagement }))
        // Driven by the ids (IdSet.rows): as `variants JOIN products WHERE variants.id IN (…)`, stale
        // statistics had SQLite scan `products` first.
        .from(sql`${ids.rows("i")} CROSS JOIN ${variants} CROSS JOIN ${products}`)
        .where(and(eq(variants.id, sql`i.id`), eq(products.id, variants.productId))),
    collect: (rows) => new Map(rows.map((r) => [r.id, r.mode])),
  }),
};

/** One entry per market of the requested locales: `show` of its price row, or null where the variant has none. */
function byRequestedMarket<T>(
  row: VariantRow,
  related: RelatedOf<typeof variantLoaders>,
  ctx: RenderContext,
  show: (price: PriceRow, today: string) => T,
) {
  const byMarket = related.prices?.get(row.id);
  const out: Record<string, T | null> = {};
  for (const m of ctx.markets) {
    const price = byMarket?.get(m);
    out[m] = price ? show(price, ctx.today) : null;
  }
  return out;
}

export const variantResource = defineResource<{
  row: VariantRow;
  translationRow: VariantTranslationRow;
  item: typeof VariantSchema;
  into: { selling_price: "prices" };
  loaders: typeof variantLoaders;
}>({
  name: "variants",
  label: "Variant",
  path: "/products/{product_id}/variants",
  tag: "Variants",
  plural: "Variants",
  item: VariantSchema,
  description: "Variants with `prices` for the markets of the requested locales (one entry per market).",
  parent: {
    label: "Product",
    table: products,
    idColumn: products.id,
    params: productIdParam,
    column: variants.productId,
    summary: "List variants of a product",
  },
  table: variants,
  idColumn: variants.id,
  localized: true,
  cache: ["products"],
  fields: {
    id: column(variants.id, "fixed"),
    internal_id: column(variants.internalId, "default"),
    sku: column(variants.sku, "default"),
    ean: column(variants.ean, "default"),
    status: column(variants.status, "default"),
    available_stock: {
      kind: "default",
      needs: ["stockManagement"],
      render: (r, related) => {
        const ownOnly = related.stockManagement?.get(r.id) === "deny-without-own-stock";
        return Math.max(0, r.warehouseStock + (ownOnly ? 0 : r.supplierStock));
      },
    },
    selling_price: {
      kind: "default",
      into: "prices",
      needs: ["prices"],
      render: (r, related, ctx) =>
        byRequestedMarket(r, related, ctx, (price, today) => ({ selling_price: sellingPrice(price, today) })),
    },
    min_quantity: column(variants.minQuantity),
    quantity_factor: column(variants.quantityFactor),
    supplier_stock: column(variants.supplierStock),
    warehouse_stock: column(variants.warehouseStock),
    cost_price: { render: (r) => money(r.costPriceAmount, r.costPriceCurrency) },
    prices: {
      needs: ["prices"],
      render: (r, related, ctx) => byRequestedMarket(r, related, ctx, marketPrice),
    },
  },
  translations: {
    table: variantTranslations,
    fk: variantTranslations.variantId,
    localeColumn: variantTranslations.locale,
    fields: { name: translatedColumn(variantTranslations.name, "default") },
  },
  loaders: variantLoaders,
  sorts: { id: { column: variants.id }, name: { translated: variantTranslations.name } },
  defaultSort: "id_asc",
});
