import { z } from "@hono/zod-openapi";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { RecordProblems } from "../../async/bulk/record-errors.ts";
import type { RowOps } from "../../async/bulk/row-ops.ts";
import { bulkTranslations } from "../../conventions/write/body-fields.ts";
import { columnChanges, sqlName } from "../../conventions/write/column-changes.ts";
import {
  isoDate,
  moneyInput,
  nonEmpty,
  nonNegativeInt,
  positiveInt,
} from "../../conventions/write/field-rules.ts";
import { translationChanges } from "../../conventions/write/translations.ts";
import { PUBLICATION_STATUSES, variantPrices, variants, variantTranslations } from "../../db/schema/index.ts";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { MARKET_KEYS, marketByKey, SHOP_CURRENCY } from "../../lib/locales.ts";
import { toScale } from "../../lib/money.ts";
import { variantResource } from "./variants.resource.ts";

const flashOffer = z
  .object({ price: moneyInput(), valid_from: isoDate(), valid_until: isoDate() })
  .strict()
  .refine((f) => f.valid_from <= f.valid_until, {
    message: "valid_from must not be after valid_until",
    path: ["valid_until"],
  });

const MarketPriceInput = z
  .object({
    list_price: moneyInput().optional(),
    offer_price: moneyInput().nullable().optional(),
    flash_offer: flashOffer.nullable().optional(),
  })
  .strict()
  .openapi("MarketPriceWrite", {
    description: "Merged field by field; `offer_price: null` and `flash_offer: null` clear them.",
  });

/** The variant write fields shared by variants bulk update and the nested variants of products bulk upsert. */
export const variantWriteShape = {
  internal_id: nonEmpty(100).nullable().optional(),
  sku: nonEmpty(64).optional(),
  ean: nonEmpty(64).nullable().optional(),
  status: z.enum(PUBLICATION_STATUSES).optional(),
  min_quantity: positiveInt().optional(),
  quantity_factor: positiveInt().optional(),
  supplier_stock: nonNegativeInt().optional().openapi({
    description:
      "Units the supplier holds for the store. Reads add it into `available_stock` (a default field).",
  }),
  warehouse_stock: nonNegativeInt().optional().openapi({
    description: "Units in the store's own warehouse. Reads add it into `available_stock` (a default field).",
  }),
  cost_price: moneyInput().nullable().optional().openapi({ description: "In the shop currency (EUR)." }),
  prices: z
    .record(z.string(), MarketPriceInput.nullable())
    .superRefine((record, ctx) => {
      for (const key of Object.keys(record)) {
        if (!MARKET_KEYS.includes(key))
          ctx.addIssue({ code: "custom", path: [key], message: "is not a market key" });
      }
    })
    .optional()
    .openapi({ description: "Keyed by market key; `null` removes that market's price." }),
  translations: bulkTranslations(z.object({ name: nonEmpty(255).nullable().optional() }).strict()).optional(),
};

/** The fields of variantWriteShape that planVariantWrite writes by hand, not through the declaration. */
export const variantWriteRelations = { cost_price: variants, prices: variantPrices } as const;

type VariantWrite = {
  [K in keyof typeof variantWriteShape]?: z.output<(typeof variantWriteShape)[K]>;
};

/*
 * The helpers below are module functions, not closures of planVariantWrite: it runs for every
 * variant of a job, and the bundle names each closure it creates (esbuild's keepNames) at a cost.
 */
const at = (path: string, p: string) => (path ? `${path}.${p}` : p);

/** The tables whose rows an existing variant's write merges by key, inserting those missing (upserts). */
export const VARIANT_UPSERT_TABLES: readonly SQLiteTable[] = [variantTranslations, variantPrices];

/** A new variant's rows cannot exist yet: they are inserted, not merged into existing ones. */
function writeChild<T extends SQLiteTable>(
  ops: RowOps,
  create: boolean,
  table: T,
  keys: SqlColumn<T>[],
  child: SqlRow<T>,
) {
  if (create) ops.insert(table, child);
  else ops.merge(table, keys, child);
}

function checkCurrency(
  problems: RecordProblems,
  path: string,
  market: string,
  currency: string,
  p: string,
  money: { currency: string } | null | undefined,
) {
  if (money && money.currency !== currency) {
    problems.add(
      "INVALID_FIELD_VALUE",
      at(path, `prices.${market}.${p}`),
      `must be ${currency}, the currency of ${market}`,
    );
  }
}

/**
 * Adds one variant write to `ops`: root columns, translations and market prices merged field by
 * field. `markets` are the markets that already have a price (a new one needs `list_price`).
 * Returns false when the write has a problem (recorded in `problems`).
 */
export function planVariantWrite(
  ops: RowOps,
  input: {
    variantId: number;
    write: VariantWrite;
    /** Markets that already have a price for this variant. */
    markets: ReadonlySet<string>;
    problems: RecordProblems;
    /** Path prefix of this variant in the record (`variants.0`), "" at the top. */
    path: string;
    now: string;
    /** For a new variant: its full row besides the written fields (product, defaults). */
    create?: SqlRow<typeof variants>;
  },
): boolean {
  const { variantId, write, markets, problems, path, now, create } = input;
  const before = problems.items.length;
  const row: SqlRow<typeof variants> = {
    ...(create ?? {}),
    ...columnChanges(variantResource, write, sqlName),
    id: variantId,
  };
  if (write.cost_price !== undefined) {
    if (write.cost_price && write.cost_price.currency !== SHOP_CURRENCY) {
      problems.add("INVALID_FIELD_VALUE", at(path, "cost_price.currency"), `must be ${SHOP_CURRENCY}`);
    }
    row.cost_price_amount = write.cost_price ? toScale(write.cost_price.amount, 2) : null;
    row.cost_price_currency = write.cost_price ? SHOP_CURRENCY : null;
  }
  if (!create) row.updated_at = now;
  const isNew = create !== undefined;
  for (const [locale, entry] of Object.entries(write.translations ?? {})) {
    if (entry === null)
      ops.delete(variantTranslations, ["variant_id", "locale"], { variant_id: variantId, locale });
    else {
      const changes = translationChanges(variantResource, entry, sqlName);
      if (Object.keys(changes).length > 0)
        writeChild(ops, isNew, variantTranslations, ["variant_id", "locale"], {
          variant_id: variantId,
          locale,
          ...changes,
        });
    }
  }
  for (const [market, price] of Object.entries(write.prices ?? {})) {
    const currency = marketByKey(market)?.currency ?? "";
    if (price === null) {
      ops.delete(variantPrices, ["variant_id", "market"], { variant_id: variantId, market });
      continue;
    }
    const priceRow: SqlRow<typeof variantPrices> = { variant_id: variantId, market, currency };
    if (price.list_price !== undefined) {
      checkCurrency(problems, path, market, currency, "list_price.currency", price.list_price);
      priceRow.list_price = toScale(price.list_price.amount, 2);
    } else if (!markets.has(market)) {
      problems.add(
        "MISSING_REQUIRED_FIELD",
        at(path, `prices.${market}.list_price`),
        "is required for a market without a price",
      );
    }
    if (price.offer_price !== undefined) {
      checkCurrency(problems, path, market, currency, "offer_price.currency", price.offer_price);
      priceRow.offer_price = price.offer_price ? toScale(price.offer_price.amount, 2) : null;
    }
    if (price.flash_offer !== undefined) {
      const f = price.flash_offer;
      checkCurrency(problems, path, market, currency, "flash_offer.price.currency", f?.price);
      priceRow.flash_price = f ? toScale(f.price.amount, 2) : null;
      priceRow.flash_valid_from = f ? f.valid_from : null;
      priceRow.flash_valid_until = f ? f.valid_until : null;
    }
    writeChild(ops, isNew, variantPrices, ["variant_id", "market"], priceRow);
  }
  if (create) ops.insert(variants, row);
  else if (Object.keys(row).length > 1) ops.merge(variants, ["id"], row);
  return problems.items.length === before;
}
