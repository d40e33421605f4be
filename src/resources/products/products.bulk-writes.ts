import type { RecordProblems } from "../../async/bulk/record-errors.ts";
import type { RowOps } from "../../async/bulk/row-ops.ts";
import { columnChanges, sqlName } from "../../conventions/write/column-changes.ts";
import { translationChanges } from "../../conventions/write/translations.ts";
import { productCategories, productImages, products, productTranslations } from "../../db/schema/index.ts";
import type { SqlRow } from "../../db/sql-row.ts";
import { slugify } from "../../lib/slug.ts";
import type { Allocator, PlanContext } from "./products.bulk-context.ts";
import type { ExistingProduct } from "./products.bulk-lookups.ts";
import { planNestedVariants } from "./products.bulk-nested-variants.ts";
import type { ProductRecord } from "./products.bulk-record.ts";
import { productResource } from "./products.resource.ts";

/*
 * The rows one product record writes: the product itself (created or updated), its translations,
 * categories and images. Its nested variants: products.bulk-nested-variants.ts.
 */

export function checkReferences(record: ProductRecord, refs: Set<string>, problems: RecordProblems) {
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

/** The product columns a record sets: its declared column fields, by SQL name. */
const productRow = (record: ProductRecord) => columnChanges(productResource, record, sqlName);

export function planCreate(ops: RowOps, ctx: PlanContext): number | null {
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
  ops.insert(products, {
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
  planTranslations(ops, id, record, null, allocator);
  planSets(ops, id, record, false);
  planNestedVariants(ops, id, record.supplier_id ?? null, ctx, []);
  return problems.empty ? id : null;
}

export function planUpdate(
  ops: RowOps,
  existing: ExistingProduct,
  ctx: PlanContext,
  locales: Set<string>,
): number | null {
  const { record, problems, now, allocator } = ctx;
  const own = ctx.variants.of(existing.id);
  const created = planNestedVariants(ops, existing.id, record.supplier_id ?? existing.supplier_id, ctx, own);
  const structure = record.product_structure ?? existing.product_structure;
  if (structure === "simple" && own.length + created > 1) {
    problems.add(
      "INVALID_FIELD_VALUE",
      record.product_structure ? "product_structure" : "variants",
      "a simple product has exactly one variant",
    );
  }
  ops.merge(products, ["id"], {
    ...productRow(record),
    id: existing.id,
    updated_at: now,
  });
  planTranslations(ops, existing.id, record, locales, allocator);
  planSets(ops, existing.id, record, true);
  return problems.empty ? existing.id : null;
}

/**
 * Translations merge per field, into the columns the product declaration's `translations` name; a
 * locale new to the product gets its generated slug_base and slug. A new product (`known` null) has
 * no rows yet: its translations are inserted.
 */
function planTranslations(
  ops: RowOps,
  productId: number,
  record: ProductRecord,
  known: Set<string> | null,
  allocator: Allocator,
) {
  for (const [locale, entry] of Object.entries(record.translations ?? {})) {
    if (entry === null) {
      ops.delete(productTranslations, ["product_id", "locale"], { product_id: productId, locale });
      continue;
    }
    const row: SqlRow<typeof productTranslations> = {
      product_id: productId,
      locale,
      ...translationChanges(productResource, entry, sqlName),
    };
    if (!known?.has(locale)) {
      const slugBase = (entry.name ? slugify(entry.name) : "") || `product-${productId}`;
      row.slug_base = slugBase;
      row.slug = allocator.slug(locale, slugBase);
    }
    if (known) ops.merge(productTranslations, ["product_id", "locale"], row);
    else ops.insert(productTranslations, row);
  }
}

/**
 * `category_ids` and `images` replace the whole set when sent: a new product's rows are inserted,
 * an existing product's set is replaced member by member (a category by its id, an image by its
 * position), so an equal set writes nothing.
 */
function planSets(ops: RowOps, productId: number, record: ProductRecord, existing: boolean) {
  if (record.category_ids) {
    const rows = record.category_ids.map((categoryId, position) => ({
      product_id: productId,
      category_id: categoryId,
      position,
    }));
    if (existing) ops.replaceSet(productCategories, "product_id", "category_id", productId, rows);
    else for (const row of rows) ops.insert(productCategories, row);
  }
  if (record.images) {
    const rows = record.images
      .map((img, order) => ({ ...img, order }))
      .sort(
        (a, b) =>
          (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
          a.order - b.order,
      )
      .map((img, position) => ({ product_id: productId, url: img.url, position }));
    if (existing) ops.replaceSet(productImages, "product_id", "position", productId, rows);
    else for (const row of rows) ops.insert(productImages, row);
  }
}
