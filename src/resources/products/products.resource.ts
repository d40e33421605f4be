import { count, sql } from "drizzle-orm";
import { childRowsLoader } from "../../conventions/child-rows.ts";
import { column } from "../../conventions/column-field.ts";
import {
  dateRangeFilters,
  enumFilter,
  filter,
  idsFilter,
  stringsFilter,
  throughRelated,
  translatedSlugFilter,
} from "../../conventions/filters.ts";
import { belongsTo, hasMany, manyThrough } from "../../conventions/includes.ts";
import { loader } from "../../conventions/loader.ts";
import { pageTextFields } from "../../conventions/page-texts.ts";
import { defineResource, type FilterDef } from "../../conventions/resource.ts";
import { translatedColumn, translatedUrl } from "../../conventions/translated-column.ts";
import { keyedColumns } from "../../db/keyed-columns.ts";
import {
  PRODUCT_STRUCTURES,
  PUBLICATION_STATUSES,
  productCategories,
  productImages,
  products,
  productTranslations,
  variants,
} from "../../db/schema/index.ts";
import { intListParam } from "../../http/params.ts";
import { brandResource } from "../brands/brands.resource.ts";
import { categoryResource } from "../categories/categories.resource.ts";
import { supplierResource } from "../suppliers/suppliers.resource.ts";
import { variantResource } from "../variants/variants.resource.ts";
import { ProductSchema } from "./products.schema.ts";

type ProductRow = typeof products.$inferSelect;
type ProductTranslationRow = typeof productTranslations.$inferSelect;
interface ProductImage {
  id: number;
  fullsize: string;
  position: number;
}

const withVariant = (filter: FilterDef) => throughRelated(products.id, variants.productId, variants, filter);

/**
 * Categories listed and every descendant of them, for `category_ids`: an uncorrelated `IN`, so the
 * tree and its products are computed once (a correlated EXISTS re-ran it for every product).
 */
const inCategoryTrees = (ids: number[]) =>
  sql`${productCategories.categoryId} IN (WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(${JSON.stringify(ids)}) UNION SELECT c.id FROM tree CROSS JOIN categories c ON c.parent_id = tree.id) SELECT id FROM tree)`;

const productLoaders = {
  images: childRowsLoader(
    productImages,
    productImages.productId,
    [productImages.productId, productImages.position],
    (img): ProductImage => ({ id: img.id, fullsize: img.url, position: img.position }),
  ),
  variantsCount: loader({
    query: (db, ids) =>
      db
        .select(keyedColumns({ productId: variants.productId, n: count() }))
        .from(variants)
        .where(ids.in(variants.productId))
        .groupBy(variants.productId),
    collect: (rows) => new Map(rows.map((r) => [r.productId, r.n])),
  }),
  categoryIds: childRowsLoader(
    productCategories,
    productCategories.productId,
    [productCategories.productId, productCategories.position],
    (link) => link.categoryId,
  ),
};

export const productResource = defineResource<{
  row: ProductRow;
  translationRow: ProductTranslationRow;
  item: typeof ProductSchema;
  includes: "supplier" | "brand" | "categories" | "variants";
  loaders: typeof productLoaders;
}>({
  name: "products",
  label: "Product",
  path: "/products",
  tag: "Products",
  plural: "Products",
  item: ProductSchema,
  table: products,
  idColumn: products.id,
  localized: true,
  cache: ["products"],
  filterCache: { category_ids: ["category_tree"] },
  fields: {
    id: column(products.id, "fixed"),
    internal_id: column(products.internalId, "default"),
    product_structure: column(products.productStructure, "default"),
    status: column(products.status, "default"),
    product_kind: column(products.productKind, "default"),
    model_code: column(products.modelCode, "default"),
    tax_category: column(products.taxCategory, "default"),
    images: {
      kind: "default",
      needs: ["images"],
      render: (r, related) => related.images?.get(r.id) ?? [],
    },
    variants_count: {
      kind: "default",
      needs: ["variantsCount"],
      render: (r, related) => related.variantsCount?.get(r.id) ?? 0,
    },
    stock_management: column(products.stockManagement),
    online_availability: column(products.onlineAvailability),
    supplier_id: column(products.supplierId),
    brand_id: column(products.brandId),
    category_ids: {
      needs: ["categoryIds"],
      render: (r, related) => related.categoryIds?.get(r.id) ?? [],
    },
    created_at: column(products.createdAt),
    updated_at: column(products.updatedAt),
  },
  translations: {
    table: productTranslations,
    fk: productTranslations.productId,
    localeColumn: productTranslations.locale,
    fields: {
      name: translatedColumn(productTranslations.name, "default"),
      slug: translatedColumn(productTranslations.slug, "default"),
      slug_base: translatedColumn(productTranslations.slugBase, "default"),
      url: translatedUrl(productTranslations.slug),
      ...pageTextFields(productTranslations),
    },
  },
  loaders: productLoaders,
  includes: {
    supplier: belongsTo<ProductRow>(() => supplierResource, {
      fk: products.supplierId,
      parentId: products.id,
      parentTable: products,
    }),
    brand: belongsTo<ProductRow>(() => brandResource, {
      fk: products.brandId,
      parentId: products.id,
      parentTable: products,
    }),
    categories: manyThrough<ProductRow>(() => categoryResource, {
      table: productCategories,
      parent: productCategories.productId,
      child: productCategories.categoryId,
      position: productCategories.position,
    }),
    variants: hasMany<ProductRow>(() => variantResource, variants.productId, [
      variants.productId,
      variants.position,
      variants.id,
    ]),
  },
  filters: {
    brand_ids: idsFilter(products.brandId, "Brand ids."),
    category_ids: throughRelated(
      products.id,
      productCategories.productId,
      productCategories,
      filter(intListParam("Category ids; products in descendant categories match too.", 50), (v) =>
        inCategoryTrees(v),
      ),
    ),
    ...dateRangeFilters("created_at", products.createdAt, "Created"),
    ...dateRangeFilters(
      "updated_at",
      products.updatedAt,
      "Last updated (for incremental synchronization; not a complete change history)",
    ),
    ean: withVariant(stringsFilter(variants.ean, "Variant EANs (exact).", { maxLength: 64 })),
    internal_ids: stringsFilter(products.internalId, "Product internal ids (exact)."),
    product_ids: idsFilter(products.id, "Product ids."),
    product_structure: enumFilter(
      products.productStructure,
      PRODUCT_STRUCTURES,
      "Product structure (hyphen form).",
    ),
    sku: withVariant(
      stringsFilter(variants.sku, "Variant SKUs (exact, case-insensitive).", {
        maxLength: 64,
        caseInsensitive: true,
      }),
    ),
    slug: translatedSlugFilter(
      products.id,
      {
        fk: productTranslations.productId,
        locale: productTranslations.locale,
        slug: productTranslations.slug,
      },
      "Product slugs in any locale (exact).",
    ),
    status: enumFilter(products.status, PUBLICATION_STATUSES, "Publication status."),
    supplier_ids: idsFilter(products.supplierId, "Products whose supplier is one of these.", 50),
  },
  sorts: {
    id: { column: products.id },
    name: { translated: productTranslations.name },
    created_at: { column: products.createdAt },
    updated_at: { column: products.updatedAt },
  },
  defaultSort: "id_asc",
});
