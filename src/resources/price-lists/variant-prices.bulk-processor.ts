import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { rememberedRows, rowKey } from "../../async/bulk/dry-run-memory.ts";
import { failed, identifiersOf, succeeded } from "../../async/bulk/record-errors.ts";
import { RowOps } from "../../async/bulk/row-ops.ts";
import { type JobRow, type Processor, planOf, type RecordOutcome } from "../../async/bulk/types.ts";
import { plus } from "../../async/bulk/unchanged.ts";
import { checkRecords, validateMatchable } from "../../async/bulk/validate.ts";
import { amountString, nonEmpty, positiveInt } from "../../conventions/write/field-rules.ts";
import { priceListVariantPrices } from "../../db/schema/index.ts";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { SHOP_CURRENCY } from "../../lib/locales.ts";
import { toScale } from "../../lib/money.ts";
import { isoSeconds } from "../../lib/time.ts";
import {
  matchVariants,
  onlyMatch,
  type VariantKey,
  type VariantMatchBy,
} from "../variants/variants.bulk-match.ts";

export const PRICE_MATCH_BY = ["variant_id", "variant_internal_id", "ean", "sku_supplier"] as const;
type PriceMatchBy = (typeof PRICE_MATCH_BY)[number];

export const PriceListPriceRecord = z
  .object({
    variant_id: positiveInt().optional(),
    variant_internal_id: nonEmpty(100).optional(),
    ean: nonEmpty(64).optional(),
    sku: nonEmpty(64).optional(),
    supplier_internal_id: nonEmpty(100).optional(),
    price: z
      .object({ amount: amountString(), currency_code: z.string().length(3) })
      .strict()
      .optional()
      .openapi({ description: "In the shop currency (EUR); required to create an entry." }),
    minimum_quantity: positiveInt().optional().openapi({ description: "Default 1." }),
    quantity_multiple: positiveInt().optional().openapi({ description: "Default 1." }),
  })
  .strict()
  .openapi("PriceListPriceBulkRecord");

const IDENTIFIER_FIELDS: Record<PriceMatchBy, string[]> = {
  variant_id: ["variant_id"],
  variant_internal_id: ["variant_internal_id"],
  ean: ["ean"],
  sku_supplier: ["sku", "supplier_internal_id"],
};

const VARIANT_BY: Record<PriceMatchBy, VariantMatchBy> = {
  variant_id: "id",
  variant_internal_id: "internal_id",
  ean: "ean",
  sku_supplier: "sku_supplier",
};

const KEYS: SqlColumn<typeof priceListVariantPrices>[] = ["price_list_id", "variant_id"];

const optionsOf = (job: JobRow) =>
  job.params as {
    options: { match_by: PriceMatchBy; mode: "upsert" | "delete" };
    price_list_id: number;
  };

/** Fixed variant prices of one price list: `upsert` creates or merges entries, `delete` removes them. */
export const priceListPrices: Processor = {
  async plan(ctx, records) {
    const { options, price_list_id: priceListId } = optionsOf(ctx.job);
    const fields = IDENTIFIER_FIELDS[options.match_by];
    const now = isoSeconds();
    const checked = checkRecords(records, (data, problems) => {
      const valid = validateMatchable(PriceListPriceRecord, data, { by: options.match_by, fields }, problems);
      if (valid?.value.price && valid.value.price.currency_code !== SHOP_CURRENCY) {
        problems.add("INVALID_FIELD_VALUE", "price.currency_code", `must be ${SHOP_CURRENCY}`);
      }
      return valid;
    });
    const keys: VariantKey[] = checked.flatMap(({ chunkRecord: { index }, valid }) => {
      if (!valid) return [];
      const {
        variant_id: id,
        variant_internal_id: internal_id,
        ean,
        sku,
        supplier_internal_id,
      } = valid.value;
      return [{ index, id, internal_id, ean, sku, supplier_internal_id }];
    });
    // The matches and whether each already has a fixed price in this list, in one query.
    const matches = await matchVariants(ctx.env.DB, VARIANT_BY[options.match_by], keys, { priceListId });
    const priced = new Set([...matches.values()].flatMap((m) => m.filter((v) => v.priced).map((v) => v.id)));
    if (ctx.dryRun) {
      // What earlier records of the dry run created or deleted, as a real run would read it.
      const remembered = rememberedRows(ctx.dryRun, priceListVariantPrices, KEYS);
      for (const v of [...matches.values()].flat()) {
        const row = remembered.get(rowKey({ price_list_id: priceListId, variant_id: v.id }, KEYS));
        if (row === null) priced.delete(v.id);
        else if (row) priced.add(v.id);
      }
    }

    const ops = new RowOps();
    const outcomes: RecordOutcome[] = [];
    /** Variants whose entry a succeeded upsert record wrote; delete records with nothing to delete. */
    const written: number[] = [];
    let nothingToDelete = 0;
    for (const { chunkRecord, problems, valid } of checked) {
      const { index } = chunkRecord;
      const identifiers = priceListPrices.identify(ctx.job, chunkRecord);
      const variant = valid && onlyMatch(matches.get(index) ?? [], problems, options.match_by);
      if (!valid || !variant) {
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      const { value: record, invalid } = valid;
      const variantId = variant.id;
      if (options.mode === "upsert" && !priced.has(variantId) && !record.price && !invalid.has("price")) {
        problems.add("MISSING_REQUIRED_FIELD", "price", "is required to create a fixed price");
      }
      if (!problems.empty) {
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      if (options.mode === "delete") {
        if (!priced.has(variantId)) {
          nothingToDelete++;
          outcomes.push(
            succeeded(index, [
              {
                severity: "WARNING",
                code: "NOT_FOUND",
                message: `Variant ${variantId} has no fixed price in this price list; nothing to delete.`,
                identifiers,
                affected_fields: null,
              },
            ]),
          );
          continue;
        }
        ops.delete(priceListVariantPrices, KEYS, { price_list_id: priceListId, variant_id: variantId });
        priced.delete(variantId);
        outcomes.push(succeeded(index));
        continue;
      }
      const row: SqlRow<typeof priceListVariantPrices> = {
        price_list_id: priceListId,
        variant_id: variantId,
        updated_at: now,
      };
      if (record.price) {
        row.amount = toScale(record.price.amount, 2);
        row.currency = SHOP_CURRENCY;
      }
      if (record.minimum_quantity !== undefined) row.min_quantity = record.minimum_quantity;
      if (record.quantity_multiple !== undefined) row.quantity_factor = record.quantity_multiple;
      if (!priced.has(variantId)) {
        ops.insert(priceListVariantPrices, {
          min_quantity: 1,
          quantity_factor: 1,
          created_at: now,
          ...row,
        });
        priced.add(variantId);
      } else {
        ops.merge(priceListVariantPrices, KEYS, row);
      }
      written.push(variantId);
      outcomes.push(succeeded(index));
    }
    // An entry written is stamped when it changed (or is new); a deleted one existed, so it changed.
    const unchanged =
      written.length === 0
        ? sql`0`
        : sql`(SELECT count(*) FROM json_each(${JSON.stringify(written)}) AS r CROSS JOIN price_list_variant_prices AS t
            ON t.price_list_id = ${priceListId} AND t.variant_id = r.value WHERE t.updated_at IS NOT ${now})`;
    return planOf(outcomes, ops, now, plus(unchanged, nothingToDelete));
  },

  identify: (job, { index, data }) =>
    identifiersOf("variant", data, IDENTIFIER_FIELDS[optionsOf(job).options.match_by], index),
};
