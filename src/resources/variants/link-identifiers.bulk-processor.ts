import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { failed, identifiersOf, type RecordProblems, succeeded } from "../../async/bulk/record-errors.ts";
import { RowOps } from "../../async/bulk/row-ops.ts";
import { type Processor, planOf, type RecordOutcome } from "../../async/bulk/types.ts";
import { checkRecords, validateFields } from "../../async/bulk/validate.ts";
import { nonEmpty } from "../../conventions/write/field-rules.ts";
import { rawBatch } from "../../db/raw.ts";
import { products, variants } from "../../db/schema/index.ts";
import { isoSeconds } from "../../lib/time.ts";
import { collectMatches, matchQuery, onlyMatch, type VariantKey } from "./variants.bulk-match.ts";

export const LinkIdentifiersItem = z
  .object({
    ean: nonEmpty(64).optional(),
    sku: nonEmpty(64).optional(),
    supplier_internal_id: nonEmpty(100).optional(),
    product_internal_id: nonEmpty(100).optional(),
    variant_internal_id: nonEmpty(100).optional(),
  })
  .strict()
  .openapi("LinkIdentifiersItem", {
    description:
      "Matches one variant by `ean`, or by `sku` with `supplier_internal_id` (exactly one option), and assigns `product_internal_id` and/or `variant_internal_id`.",
  });

/**
 * Records that changed nothing: their variant was not stamped, nor their product when they set its
 * internal id (a stamped variant stamps its product too, so a record setting only the variant's id
 * is judged by the variant).
 */
function unchangedLinks(written: [number, 0 | 1][], now: string): SQL {
  if (written.length === 0) return sql`0`;
  return sql`(SELECT count(*) FROM json_each(${JSON.stringify(written)}) AS r
    CROSS JOIN variants AS v ON v.id = r.value ->> 0
    WHERE v.updated_at IS NOT ${now}
      AND (r.value ->> 1 = 0 OR NOT EXISTS (SELECT 1 FROM products AS p WHERE p.id = v.product_id AND p.updated_at = ${now})))`;
}

/**
 * A record's item and which identifier matches it (`ean`, else `sku` with `supplier_internal_id`);
 * null when it names no one way to match or nothing to assign. Its other invalid fields are
 * recorded and it is still matched.
 */
function checkLink(data: unknown, problems: RecordProblems) {
  const raw = (data ?? {}) as Record<string, unknown>;
  const { value: item, invalid } = validateFields(LinkIdentifiersItem, data, problems);
  const hasEan = raw.ean !== undefined;
  const hasSku = raw.sku !== undefined || raw.supplier_internal_id !== undefined;
  const before = problems.items.length;
  if (hasEan === hasSku) {
    problems.add(
      "INVALID_IDENTIFIER",
      hasEan ? "ean" : null,
      "use exactly one of `ean` or `sku` + `supplier_internal_id`",
    );
  } else if (hasSku && (raw.sku === undefined || raw.supplier_internal_id === undefined)) {
    problems.add(
      "INVALID_IDENTIFIER",
      raw.sku === undefined ? "sku" : "supplier_internal_id",
      "is required with the other",
    );
  } else {
    for (const f of ["ean", "sku", "supplier_internal_id"]) {
      if (invalid.has(f)) problems.add("INVALID_IDENTIFIER", f, "is not a valid identifier");
    }
  }
  if (raw.product_internal_id === undefined && raw.variant_internal_id === undefined) {
    problems.add(
      "INVALID_IDENTIFIER",
      null,
      "needs product_internal_id and/or variant_internal_id to assign",
    );
  }
  return problems.items.length > before ? null : { item, hasEan };
}

/** Links merchant internal ids to exactly one matching variant and/or its product; creates nothing. */
export const identifiersLink: Processor = {
  async plan(ctx, records) {
    const now = isoSeconds();
    const checked = checkRecords(records, checkLink);
    const byEan: VariantKey[] = [];
    const bySku: VariantKey[] = [];
    for (const { chunkRecord, valid } of checked) {
      if (!valid) continue;
      const { item, hasEan } = valid;
      (hasEan ? byEan : bySku).push({
        index: chunkRecord.index,
        ean: item.ean,
        sku: item.sku,
        supplier_internal_id: item.supplier_internal_id,
      });
    }
    // Both kinds of match in one round trip.
    const [eanRows, skuRows] =
      byEan.length + bySku.length > 0
        ? await rawBatch(ctx.env.DB, [matchQuery("ean", byEan), matchQuery("sku_supplier", bySku)])
        : [];
    const eanMatches = collectMatches(eanRows?.results ?? []);
    const skuMatches = collectMatches(skuRows?.results ?? []);
    const ops = new RowOps();
    const outcomes: RecordOutcome[] = [];
    /** Per succeeded record: its variant, and whether it sets the product's internal id. */
    const written: [variant: number, product: 0 | 1][] = [];
    for (const { chunkRecord, problems, valid } of checked) {
      const { index } = chunkRecord;
      const identifiers = identifiersLink.identify(ctx.job, chunkRecord);
      const found = eanMatches.get(index) ?? skuMatches.get(index) ?? [];
      const variant = valid && onlyMatch(found, problems, "identifier");
      if (!valid || !variant || !problems.empty) {
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      const { item } = valid;
      if (item.variant_internal_id !== undefined) {
        ops.merge(variants, ["id"], {
          id: variant.id,
          internal_id: item.variant_internal_id,
          updated_at: now,
        });
      }
      // A changed variant stamps its product (RowOps' last statement); its own id stamps it too.
      if (item.product_internal_id !== undefined)
        ops.merge(products, ["id"], {
          id: variant.product_id,
          internal_id: item.product_internal_id,
          updated_at: now,
        });
      written.push([variant.id, item.product_internal_id !== undefined ? 1 : 0]);
      outcomes.push(succeeded(index));
    }
    // Matching reads ean and sku, which no record changes: a dry run replays the earlier effects only.
    return planOf(outcomes, ops, now, unchangedLinks(written, now));
  },

  identify: (_job, { index, data }) =>
    identifiersOf("variant", data, ["ean", "sku", "supplier_internal_id"], index),

  conflictFields: (_job, constraint) =>
    /variants\.internal_id/.test(constraint)
      ? ["variant_internal_id"]
      : /products\.internal_id/.test(constraint)
        ? ["product_internal_id"]
        : [],
};
