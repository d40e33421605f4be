import { updateJson } from "../../async/bulk-jobs/bulk-sql.ts";
import {
  failed,
  identifiersOf,
  type RecordProblems as Problems,
  RecordProblems,
  succeeded,
} from "../../async/bulk-jobs/record-errors.ts";
import { RowOps } from "../../async/bulk-jobs/row-ops.ts";
import type { ChunkRecord, JobRow, Plan, Processor, RecordOutcome } from "../../async/bulk-jobs/types.ts";
import { validateFields } from "../../async/bulk-jobs/validate.ts";
import { planVariantWrite } from "../../async/bulk-jobs/variant-fields.ts";
import { slugCandidates, slugify } from "../../lib/slug.ts";
import { isoSeconds } from "../../lib/time.ts";
import { type ExistingProduct, type ExistingVariant, lookupProducts } from "./products.bulk-lookups.ts";
import { type ProductRecord, ProductUpsertRecord } from "./products.bulk-record.ts";

const UPSERT_TABLES = new Set(["product_translations", "variant_translations", "variant_prices"]);

const PRODUCT_COLUMNS = [
  "internal_id",
  "product_structure",
  "status",
  "product_kind",
  "stock_management",
  "online_availability",
  "model_code",
  "tax_category",
  "supplier_id",
  "brand_id",
] as const;

const TRANSLATION_COLUMNS = [
  "name",
  "description",
  "body_html",
  "long_name",
  "meta_title",
  "meta_description",
] as const;

/** Hands out ids and slugs for rows this chunk creates (the UNIQUE/PK indexes stay the arbiters). */
class Allocator {
  constructor(
    private productId: number,
    private variantId: number,
    private readonly taken: Map<string, Set<string>>,
  ) {}

  nextProduct = () => ++this.productId;
  nextVariant = () => ++this.variantId;

  slug(locale: string, base: string): string {
    const taken = this.taken.get(locale) ?? new Set<string>();
    this.taken.set(locale, taken);
    for (const candidate of slugCandidates(base, taken.size + 2)) {
      if (!taken.has(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
    throw new Error("unreachable");
  }
}

/**
 * Products bulk upsert: `match_by: id` updates only; `match_by: internal_id` creates when nothing
 * matches. A product record and its nested variants succeed or fail together.
 */
export const productsUpsert: Processor = {
  async plan(ctx, records: ChunkRecord[]): Promise<Plan> {
    const matchBy = matchByOf(ctx.job);
    const now = isoSeconds();
    const problemsOf = new Map<number, RecordProblems>();
    const parsed = new Map<number, ProductRecord>();
    const invalidOf = new Map<number, Set<string>>();
    for (const { index, data } of records) {
      const problems = new RecordProblems();
      problemsOf.set(index, problems);
      const raw = (data ?? {}) as Record<string, unknown>;
      const { value: record, invalid } = validateFields(ProductUpsertRecord, data, problems);
      invalidOf.set(index, invalid);
      if (raw[matchBy] === undefined || raw[matchBy] === null || raw[matchBy] === "") {
        problems.add("INVALID_IDENTIFIER", matchBy, `is required to match by ${matchBy}`);
        continue;
      }
      if (invalid.has(matchBy)) {
        problems.add("INVALID_IDENTIFIER", matchBy, "is not a valid identifier");
        continue;
      }
      // Records with invalid fields are still matched, so NOT_FOUND outranks their field errors.
      parsed.set(index, record);
    }
    const slugBases = [...parsed.values()].flatMap((r) =>
      Object.entries(r.translations ?? {}).flatMap(([locale, t]) => {
        const base = t?.name ? slugify(t.name) : "";
        return base ? [{ locale, base }] : [];
      }),
    );
    const found = await lookupProducts(ctx.env.DB, matchBy, [...parsed.values()], slugBases);
    const byKey = new Map<string | number, ExistingProduct>(
      found.products.map((p) => [matchBy === "id" ? p.id : (p.internal_id as string), p]),
    );
    const allocator = new Allocator(found.maxProductId, found.maxVariantId, found.takenSlugs);
    const localesOf = new Map<number, Set<string>>();
    for (const l of found.locales)
      localesOf.set(l.product_id, (localesOf.get(l.product_id) ?? new Set()).add(l.locale));

    const ops = new RowOps();
    const supplierChanges: { product_id: number; supplier_id: number | null }[] = [];
    const outcomes: RecordOutcome[] = [];
    for (const chunkRecord of records) {
      const { index } = chunkRecord;
      const problems = problemsOf.get(index) as RecordProblems;
      const identifiers = productsUpsert.identify(ctx.job, chunkRecord);
      const record = parsed.get(index);
      if (!record) {
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      const existing = byKey.get(record[matchBy] as string | number);
      if (!existing && matchBy === "id") {
        problems.add("NOT_FOUND", "id", `No product has id ${record.id}`);
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      const recordOps = new RowOps();
      const context = {
        record,
        problems,
        invalid: invalidOf.get(index) ?? new Set<string>(),
        now,
        allocator,
        variants: found.variants,
        markets: found.markets,
        marketChanges: [] as MarketChange[],
      };
      checkReferences(record, found.references, problems);
      const productId = existing
        ? planUpdate(recordOps, existing, context, localesOf.get(existing.id) ?? new Set())
        : planCreate(recordOps, context);
      if (!problems.empty || productId === null) {
        outcomes.push(failed(index, identifiers, problems));
        continue;
      }
      if (existing && record.supplier_id !== undefined && record.supplier_id !== existing.supplier_id) {
        supplierChanges.push({ product_id: existing.id, supplier_id: record.supplier_id });
      }
      if (existing) seeOwnChanges(existing, record, localesOf, context);
      ops.absorb(recordOps);
      outcomes.push(succeeded(index));
    }
    const statements = ops.statements(UPSERT_TABLES);
    // Variants carry a copy of their product's supplier (for the sku-per-supplier UNIQUE index).
    statements.push(...updateJson("variants", ["product_id"], ["supplier_id"], supplierChanges));
    return { outcomes, statements };
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

type MarketChange = [variantId: number, market: string, priced: boolean];

interface PlanContext {
  /** Markets priced or removed by this record's updates of existing variants. */
  marketChanges: MarketChange[];
  record: ProductRecord;
  problems: Problems;
  /** Fields sent with an invalid value (already reported): their required-field checks are skipped. */
  invalid: Set<string>;
  now: string;
  allocator: Allocator;
  variants: ExistingVariant[];
  markets: Map<number, Set<string>>;
}

function checkReferences(record: ProductRecord, refs: Set<string>, problems: Problems) {
  if (record.supplier_id != null && !refs.has(`supplier:${record.supplier_id}`)) {
    problems.add("INVALID_FIELD_VALUE", "supplier_id", `supplier ${record.supplier_id} does not exist`);
  }
  if (record.brand_id != null && !refs.has(`brand:${record.brand_id}`)) {
    problems.add("INVALID_FIELD_VALUE", "brand_id", `brand ${record.brand_id} does not exist`);
  }
  (record.category_ids ?? []).forEach((id, i) => {
    if (!refs.has(`category:${id}`))
      problems.add("INVALID_FIELD_VALUE", `category_ids.${i}`, `category ${id} does not exist`);
  });
}

function productRow(record: ProductRecord) {
  const row: Record<string, unknown> = {};
  for (const column of PRODUCT_COLUMNS) {
    const value = record[column];
    if (value !== undefined) row[column] = value;
  }
  return row;
}

function planCreate(ops: RowOps, ctx: PlanContext): number | null {
  const { record, problems, invalid, now, allocator } = ctx;
  const names = Object.values(record.translations ?? {}).filter((t) => t?.name);
  if (names.length === 0 && !invalid.has("translations"))
    problems.add(
      "MISSING_REQUIRED_FIELD",
      "translations",
      "a new product needs a name in at least one locale",
    );
  const variants = record.variants ?? [];
  if (variants.length === 0 && !invalid.has("variants"))
    problems.add("MISSING_REQUIRED_FIELD", "variants", "a new product needs at least one variant");
  variants.forEach((v, i) => {
    if (v.id !== undefined)
      problems.add("INVALID_FIELD_VALUE", `variants.${i}.id`, "a new product has no variant with this id");
  });
  const structure = record.product_structure ?? (variants.length > 1 ? "with-variants" : "simple");
  if (structure === "simple" && variants.length > 1) {
    problems.add("INVALID_FIELD_VALUE", "product_structure", "a simple product has exactly one variant");
  }
  if (!problems.empty) return null;
  const id = allocator.nextProduct();
  ops.insert("products", {
    status: "unpublished",
    product_kind: "physical",
    stock_management: "default",
    online_availability: null,
    model_code: null,
    tax_category: "standard",
    supplier_id: null,
    brand_id: null,
    internal_id: null,
    ...productRow(record),
    id,
    product_structure: structure,
    created_at: now,
    updated_at: now,
  });
  planTranslations(ops, id, record, new Set(), allocator);
  planSets(ops, id, record);
  planNestedVariants(ops, id, record.supplier_id ?? null, ctx, []);
  return problems.empty ? id : null;
}

function planUpdate(
  ops: RowOps,
  existing: ExistingProduct,
  ctx: PlanContext,
  locales: Set<string>,
): number | null {
  const { record, problems, now, allocator } = ctx;
  const own = ctx.variants.filter((v) => v.product_id === existing.id);
  const created = planNestedVariants(ops, existing.id, record.supplier_id ?? existing.supplier_id, ctx, own);
  const structure = record.product_structure ?? existing.product_structure;
  if (structure === "simple" && own.length + created > 1) {
    problems.add(
      "INVALID_FIELD_VALUE",
      record.product_structure ? "product_structure" : "variants",
      "a simple product has exactly one variant",
    );
  }
  const { internal_id: _matchKey, ...changes } = productRow(record);
  ops.merge("products", ["id"], {
    ...changes,
    ...(record.internal_id !== undefined ? { internal_id: record.internal_id } : {}),
    id: existing.id,
    updated_at: now,
  });
  planTranslations(ops, existing.id, record, locales, allocator);
  planSets(ops, existing.id, record);
  return problems.empty ? existing.id : null;
}

/** Translations merge per field; a locale new to the product gets its generated slug_base and slug. */
function planTranslations(
  ops: RowOps,
  productId: number,
  record: ProductRecord,
  known: Set<string>,
  allocator: Allocator,
) {
  for (const [locale, entry] of Object.entries(record.translations ?? {})) {
    if (entry === null) {
      ops.delete("product_translations", ["product_id", "locale"], { product_id: productId, locale });
      continue;
    }
    const row: Record<string, unknown> = { product_id: productId, locale };
    for (const column of TRANSLATION_COLUMNS) if (entry[column] !== undefined) row[column] = entry[column];
    if (!known.has(locale)) {
      const base = entry.name ? slugify(entry.name) : "";
      row.slug_base = base || `product-${productId}`;
      row.slug = allocator.slug(locale, row.slug_base as string);
    }
    ops.merge("product_translations", ["product_id", "locale"], row);
  }
}

/** `category_ids` and `images` replace the whole set when sent. */
function planSets(ops: RowOps, productId: number, record: ProductRecord) {
  if (record.category_ids) {
    ops.delete("product_categories", ["product_id"], { product_id: productId });
    record.category_ids.forEach((categoryId, position) => {
      ops.insert("product_categories", { product_id: productId, category_id: categoryId, position });
    });
  }
  if (record.images) {
    ops.delete("product_images", ["product_id"], { product_id: productId });
    record.images
      .map((img, order) => ({ ...img, order }))
      .sort(
        (a, b) =>
          (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
          a.order - b.order,
      )
      .forEach((img, position) => {
        ops.insert("product_images", { product_id: productId, url: img.url, position });
      });
  }
}

/** Nested variants merge by `id` or `internal_id` within the product; the others are created. Returns how many are created. */
function planNestedVariants(
  ops: RowOps,
  productId: number,
  supplierId: number | null,
  ctx: PlanContext,
  own: ExistingVariant[],
): number {
  const { record, problems, now, allocator } = ctx;
  let created = 0;
  (record.variants ?? []).forEach((variant, i) => {
    const path = `variants.${i}`;
    const { id, ...write } = variant;
    let target: ExistingVariant | undefined;
    if (id !== undefined) {
      target = own.find((v) => v.id === id);
      if (!target) {
        problems.add("INVALID_FIELD_VALUE", `${path}.id`, `variant ${id} is not a variant of this product`);
        return;
      }
    } else if (write.internal_id) {
      target = own.find((v) => v.internal_id === write.internal_id);
      const elsewhere = ctx.variants.find(
        (v) => v.internal_id === write.internal_id && v.product_id !== productId,
      );
      if (!target && elsewhere) {
        problems.add(
          "INVALID_FIELD_VALUE",
          `${path}.internal_id`,
          "is the internal id of a variant of another product",
        );
        return;
      }
    }
    if (target) {
      for (const [market, price] of Object.entries(write.prices ?? {}))
        ctx.marketChanges.push([target.id, market, price !== null]);
      planVariantWrite(ops, {
        variantId: target.id,
        write,
        markets: ctx.markets.get(target.id) ?? new Set(),
        problems,
        path,
        now,
      });
      return;
    }
    if (!write.sku) problems.add("MISSING_REQUIRED_FIELD", `${path}.sku`, "a new variant needs a sku");
    const variantId = allocator.nextVariant();
    created++;
    planVariantWrite(ops, {
      variantId,
      write,
      markets: new Set(),
      problems,
      path,
      now,
      create: {
        product_id: productId,
        supplier_id: supplierId,
        internal_id: null,
        sku: null,
        ean: null,
        status: "published",
        min_quantity: 1,
        quantity_factor: 1,
        supplier_stock: 0,
        warehouse_stock: 0,
        cost_price_amount: null,
        cost_price_currency: null,
        position: (own.length + i) as number,
        created_at: now,
        updated_at: now,
      },
    });
  });
  return created;
}
