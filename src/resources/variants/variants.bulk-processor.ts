import { z } from "@hono/zod-openapi";
import { layRememberedMarkets } from "../../async/bulk/dry-run-memory.ts";
import { failed, identifiersOf, succeeded } from "../../async/bulk/record-errors.ts";
import { RowOps } from "../../async/bulk/row-ops.ts";
import { type JobRow, type Processor, planOf, type RecordOutcome } from "../../async/bulk/types.ts";
import { unchangedById } from "../../async/bulk/unchanged.ts";
import { checkRecords, validateMatchable } from "../../async/bulk/validate.ts";
import { variants } from "../../db/schema/index.ts";
import { isoSeconds } from "../../lib/time.ts";
import { planVariantWrite, VARIANT_UPSERT_TABLES, variantWriteShape } from "./variants.bulk-fields.ts";
import { matchVariants, onlyMatch, type VariantKey, type VariantMatchBy } from "./variants.bulk-match.ts";

export const VariantUpdateRecord = z
  .object({
    id: z.number().int().min(1).optional(),
    supplier_internal_id: z.string().min(1).max(100).optional(),
    ...variantWriteShape,
  })
  .strict()
  .openapi("VariantBulkRecord", {
    description:
      "The match identifier named by `options.match_by` plus only the fields to change. `sku_supplier` matching uses `sku` and `supplier_internal_id`.",
  });

const IDENTIFIER_FIELDS: Record<VariantMatchBy, string[]> = {
  id: ["id"],
  internal_id: ["internal_id"],
  ean: ["ean"],
  sku_supplier: ["sku", "supplier_internal_id"],
};

const UPSERT_TABLES = new Set(VARIANT_UPSERT_TABLES);

const matchByOf = (job: JobRow) => (job.params.options as { match_by: VariantMatchBy }).match_by;

/** Variants bulk update: updates existing variants only; unmatched is NOT_FOUND, several matches AMBIGUOUS_MATCH. */
export const variantsUpdate: Processor = {
  async plan(ctx, records) {
    const by = matchByOf(ctx.job);
    const fields = IDENTIFIER_FIELDS[by];
    const now = isoSeconds();
    const checked = checkRecords(
      records,
      (data, problems) => validateMatchable(VariantUpdateRecord, data, { by, fields }, problems)?.value,
    );
    const keys: VariantKey[] = checked.flatMap(({ chunkRecord: { index }, valid: record }) =>
      record
        ? [{ index, ...Object.fromEntries(fields.map((f) => [f, record[f as keyof typeof record]])) }]
        : [],
    );
    // The matches and the markets each matched variant already has a price in, in one query.
    const matches = await matchVariants(ctx.env.DB, by, keys, { markets: true });
    const markets = new Map<number, Set<string>>();
    for (const found of matches.values()) {
      for (const v of found) if (!markets.has(v.id)) markets.set(v.id, new Set(v.markets));
    }
    // A dry run's earlier records never change a match key (each writes its own key's value, or
    // no sku when matched by sku_supplier); the markets they priced are laid over.
    if (ctx.dryRun) layRememberedMarkets(ctx.dryRun, markets);

    const ops = new RowOps();
    const outcomes: RecordOutcome[] = [];
    const written: number[] = [];
    for (const { chunkRecord, problems, valid: record } of checked) {
      const { index } = chunkRecord;
      const variant = record && onlyMatch(matches.get(index) ?? [], problems, by, true);
      if (!record || !variant) {
        outcomes.push(failed(index, variantsUpdate.identify(ctx.job, chunkRecord), problems));
        continue;
      }
      const { id: _id, supplier_internal_id: _s, ...write } = record;
      const recordOps = new RowOps();
      planVariantWrite(recordOps, {
        variantId: variant.id,
        write: by === "sku_supplier" ? { ...write, sku: undefined } : write,
        markets: markets.get(variant.id) ?? new Set(),
        problems,
        path: "",
        now,
      });
      if (!problems.empty) {
        outcomes.push(failed(index, variantsUpdate.identify(ctx.job, chunkRecord), problems));
        continue;
      }
      // Later records see the prices earlier ones create or remove.
      for (const [market, price] of Object.entries(write.prices ?? {})) {
        const set = markets.get(variant.id) ?? new Set<string>();
        if (price) set.add(market);
        else set.delete(market);
        markets.set(variant.id, set);
      }
      ops.absorb(recordOps);
      written.push(variant.id);
      outcomes.push(succeeded(index));
    }
    // A changed variant stamps its product too (incremental synchronization reads the product's
    // updated_at): RowOps' last statement.
    return planOf(outcomes, ops, now, unchangedById(variants, written, now), UPSERT_TABLES);
  },

  identify: (job, { index, data }) =>
    identifiersOf("variant", data, IDENTIFIER_FIELDS[matchByOf(job)], index),

  conflictFields: (_job, constraint) =>
    /variants\.internal_id/.test(constraint)
      ? ["internal_id"]
      : /variants_supplier_sku|variants\.sku/.test(constraint)
        ? ["sku"]
        : [],
};
