import { updateJson } from "../../async/bulk/bulk-sql.ts";
import { failed, identifiersOf, succeeded } from "../../async/bulk/record-errors.ts";
import { RowOps } from "../../async/bulk/row-ops.ts";
import { type JobRow, type Processor, planOf, type RecordOutcome } from "../../async/bulk/types.ts";
import { unchangedById } from "../../async/bulk/unchanged.ts";
import { checkRecords, validateMatchable } from "../../async/bulk/validate.ts";
import { products, productTranslations, variants } from "../../db/schema/index.ts";
import { slugify } from "../../lib/slug.ts";
import { isoSeconds } from "../../lib/time.ts";
import { VARIANT_UPSERT_TABLES } from "../variants/variants.bulk-fields.ts";
import { Allocator, ExistingVariants, type MarketChange, type PlanContext } from "./products.bulk-context.ts";
import { layRememberedRows } from "./products.bulk-dry-run.ts";
import { type ExistingProduct, lookupProducts } from "./products.bulk-lookups.ts";
import { type ProductRecord, ProductUpsertRecord } from "./products.bulk-record.ts";
import { checkReferences, planCreate, planUpdate } from "./products.bulk-writes.ts";

const UPSERT_TABLES = new Set([productTranslations, ...VARIANT_UPSERT_TABLES]);

/**
 * Products bulk upsert: `match_by: id` updates only; `match_by: internal_id` creates when nothing
 * matches. A product record and its nested variants succeed or fail together.
 */
export const productsUpsert: Processor = {
  async plan(ctx, records) {
    const matchBy = matchByOf(ctx.job);
    const now = isoSeconds();
    const checked = checkRecords(records, (data, problems) =>
      validateMatchable(ProductUpsertRecord, data, { by: matchBy, fields: [matchBy] }, problems),
    );
    // Records with invalid fields are still matched, so NOT_FOUND outranks their field errors.
    const parsed = checked.flatMap(({ valid }) => (valid ? [valid.value] : []));
    const slugBases = parsed.flatMap((r) =>
      Object.entries(r.translations ?? {}).flatMap(([locale, t]) => {
        const base = t?.name ? slugify(t.name) : "";
        return base ? [{ locale, base }] : [];
      }),
    );
    const found = await lookupProducts(ctx.env.DB, matchBy, parsed, slugBases);
    if (ctx.dryRun) await layRememberedRows(ctx.env.DB, found, ctx.dryRun, matchBy, parsed);
    const byKey = new Map<string | number, ExistingProduct>(
      found.products.map((p) => [matchBy === "id" ? p.id : (p.internal_id as string), p]),
    );
    const allocator = new Allocator(found.maxProductId, found.maxVariantId, found.takenSlugs);
    const existingVariants = new ExistingVariants(found.variants);
    const localesOf = new Map<number, Set<string>>();
    for (const l of found.locales)
      localesOf.set(l.product_id, (localesOf.get(l.product_id) ?? new Set()).add(l.locale));

    const ops = new RowOps();
    const supplierChanges: { product_id: number; supplier_id: number | null }[] = [];
    const outcomes: RecordOutcome[] = [];
    const written: number[] = [];
    for (const { chunkRecord, problems, valid } of checked) {
      const { index } = chunkRecord;
      if (!valid) {
        outcomes.push(failed(index, productsUpsert.identify(ctx.job, chunkRecord), problems));
        continue;
      }
      const { value: record, invalid } = valid;
      const existing = byKey.get(record[matchBy] as string | number);
      if (!existing && matchBy === "id") {
        problems.add("NOT_FOUND", "id", `No product has id ${record.id}`);
        outcomes.push(failed(index, productsUpsert.identify(ctx.job, chunkRecord), problems));
        continue;
      }
      const recordOps = new RowOps();
      const context = {
        record,
        problems,
        invalid,
        now,
        allocator,
        variants: existingVariants,
        markets: found.markets,
        marketChanges: [] as MarketChange[],
      };
      checkReferences(record, found.references, problems);
      const productId = existing
        ? planUpdate(recordOps, existing, context, localesOf.get(existing.id) ?? new Set())
        : planCreate(recordOps, context);
      if (!problems.empty || productId === null) {
        outcomes.push(failed(index, productsUpsert.identify(ctx.job, chunkRecord), problems));
        continue;
      }
      if (existing && record.supplier_id !== undefined && record.supplier_id !== existing.supplier_id) {
        supplierChanges.push({ product_id: existing.id, supplier_id: record.supplier_id });
      }
      if (existing) seeOwnChanges(existing, record, localesOf, context);
      ops.absorb(recordOps);
      written.push(productId);
      outcomes.push(succeeded(index));
    }
    // A product is stamped when it, its rows or one of its variants changed (or it is new).
    // Variants carry a copy of their product's supplier (for the sku-per-supplier UNIQUE index).
    const suppliers = updateJson(variants, ["product_id"], ["supplier_id"], supplierChanges);
    return planOf(outcomes, ops, now, unchangedById(products, written, now), UPSERT_TABLES, suppliers);
  },

  identify: (job, { index, data }) => identifiersOf("product", data, [matchByOf(job)], index),

  conflictFields: (_job, constraint, data) => {
    const variants = (data as { variants?: unknown }).variants;
    const nested = (field: string) =>
      Array.isArray(variants)
        ? variants.flatMap((v, i) =>
            v && typeof v === "object" && field in v ? [`variants.${i}.${field}`] : [],
          )
        : [];
    if (/products\.internal_id/.test(constraint)) return ["internal_id"];
    if (/variants\.internal_id/.test(constraint)) return nested("internal_id");
    if (/variants_supplier_sku|variants\.sku/.test(constraint)) return nested("sku");
    return [];
  },
};

const matchByOf = (job: JobRow) => (job.params.options as { match_by: "id" | "internal_id" }).match_by;

/** A later record of the same chunk sees what an earlier one did to a product it also updates. */
function seeOwnChanges(
  existing: ExistingProduct,
  record: ProductRecord,
  localesOf: Map<number, Set<string>>,
  ctx: PlanContext,
) {
  if (record.supplier_id !== undefined) existing.supplier_id = record.supplier_id;
  if (record.product_structure !== undefined) existing.product_structure = record.product_structure;
  const locales = localesOf.get(existing.id) ?? new Set<string>();
  for (const [locale, entry] of Object.entries(record.translations ?? {})) {
    if (entry === null) locales.delete(locale);
    else locales.add(locale);
  }
  localesOf.set(existing.id, locales);
  for (const [variantId, market, priced] of ctx.marketChanges) {
    const markets = ctx.markets.get(variantId) ?? new Set<string>();
    if (priced) markets.add(market);
    else markets.delete(market);
    ctx.markets.set(variantId, markets);
  }
}
