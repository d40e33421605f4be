import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, id, owner, pageTexts, reference, updatedAt } from "./columns.ts";
import * as enums from "./enums.ts";

/**
 * The keys of a translation table whose rows carry a name and a slug: one row per owner and locale,
 * a slug unique within its locale, names searched within their locale.
 */
const namedTranslationKeys = (
  table: string,
  ownerId: AnySQLiteColumn,
  t: { locale: AnySQLiteColumn; slug: AnySQLiteColumn; name: AnySQLiteColumn },
) => [
  primaryKey({ columns: [ownerId, t.locale] }),
  uniqueIndex(`${table}_slug_unique`).on(t.locale, t.slug),
  index(`${table}_name_idx`).on(t.locale, t.name),
];

export const brands = sqliteTable(
  "brands",
  {
    id: id(),
    internalId: text("internal_id"),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    deliveryTimeInStock: integer("delivery_time_in_stock"),
    deliveryTimeOutOfStock: integer("delivery_time_out_of_stock"),
    /** R2 key `<sha256>.<ext>` of the stored image (older rows: its full URL), rendered on the public origin. */
    imageUrl: text("image_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("brands_internal_id_unique").on(t.internalId),
    uniqueIndex("brands_slug_unique").on(t.slug),
    index("brands_name_idx").on(t.name, t.id),
  ],
);

export const brandTranslations = sqliteTable(
  "brand_translations",
  {
    brandId: owner("brand_id", () => brands.id),
    locale: text("locale").notNull(),
    ...pageTexts(),
    /** The size guide file as written through the API: a `name` and whatever else it carried. */
    sizeGuideFile: text("size_guide_file", { mode: "json" }).$type<
      { name: string } & Record<string, unknown>
    >(),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.locale] })],
);

export const categories = sqliteTable(
  "categories",
  {
    id: id(),
    internalId: text("internal_id"),
    parentId: integer("parent_id").references((): AnySQLiteColumn => categories.id),
    status: text("status", { enum: enums.PUBLICATION_STATUSES }).notNull(),
    /** R2 key `<sha256>.<ext>` of the stored image (older rows: its full URL), rendered on the public origin. */
    imageUrl: text("image_url"),
    merchantCategories: text("merchant_categories", { mode: "json" }).$type<Record<string, { id: string }>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("categories_internal_id_unique").on(t.internalId),
    index("categories_parent_idx").on(t.parentId, t.id),
    index("categories_status_idx").on(t.status, t.id),
  ],
);

export const categoryTranslations = sqliteTable(
  "category_translations",
  {
    categoryId: owner("category_id", () => categories.id),
    locale: text("locale").notNull(),
    name: text("name"),
    slug: text("slug"),
    ...pageTexts(),
  },
  (t) => namedTranslationKeys("category_translations", t.categoryId, t),
);

export const suppliers = sqliteTable(
  "suppliers",
  {
    id: id(),
    name: text("name").notNull(),
    internalId: text("internal_id").notNull(),
    description: text("description"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("suppliers_internal_id_unique").on(t.internalId),
    index("suppliers_name_idx").on(t.name, t.id),
  ],
);

export const products = sqliteTable(
  "products",
  {
    id: id(),
    internalId: text("internal_id"),
    productStructure: text("product_structure", { enum: enums.PRODUCT_STRUCTURES }).notNull(),
    status: text("status", { enum: enums.PUBLICATION_STATUSES }).notNull(),
    productKind: text("product_kind", { enum: enums.PRODUCT_KINDS }).notNull(),
    stockManagement: text("stock_management", { enum: enums.STOCK_MANAGEMENT_MODES }).notNull(),
    onlineAvailability: text("online_availability", { enum: enums.ONLINE_AVAILABILITIES }),
    modelCode: text("model_code"),
    taxCategory: text("tax_category", { enum: enums.TAX_CATEGORIES }).notNull(),
    supplierId: integer("supplier_id").references(() => suppliers.id),
    brandId: integer("brand_id").references(() => brands.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("products_internal_id_unique").on(t.internalId),
    index("products_brand_idx").on(t.brandId, t.id),
    index("products_supplier_idx").on(t.supplierId, t.id),
    index("products_status_idx").on(t.status, t.id),
    index("products_structure_idx").on(t.productStructure, t.id),
    index("products_created_idx").on(t.createdAt, t.id),
    index("products_updated_idx").on(t.updatedAt, t.id),
  ],
);

export const productTranslations = sqliteTable(
  "product_translations",
  {
    productId: owner("product_id", () => products.id),
    locale: text("locale").notNull(),
    name: text("name"),
    slugBase: text("slug_base"),
    slug: text("slug"),
    ...pageTexts(),
  },
  (t) => namedTranslationKeys("product_translations", t.productId, t),
);

export const productImages = sqliteTable(
  "product_images",
  {
    id: id(),
    productId: owner("product_id", () => products.id),
    url: text("url").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [index("product_images_product_idx").on(t.productId, t.position)],
);

export const productCategories = sqliteTable(
  "product_categories",
  {
    productId: owner("product_id", () => products.id),
    categoryId: reference("category_id", () => categories.id),
    /** 0 is the main category (the first of `category_ids`). */
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index("product_categories_category_idx").on(t.categoryId, t.productId),
  ],
);

export const variants = sqliteTable(
  "variants",
  {
    id: id(),
    productId: owner("product_id", () => products.id),
    /** Copy of the parent product's supplier, kept in the same batch, so (sku, supplier) can be a UNIQUE index. */
    supplierId: integer("supplier_id").references(() => suppliers.id),
    internalId: text("internal_id"),
    sku: text("sku"),
    ean: text("ean"),
    status: text("status", { enum: enums.PUBLICATION_STATUSES }).notNull(),
    minQuantity: integer("min_quantity").notNull().default(1),
    quantityFactor: integer("quantity_factor").notNull().default(1),
    supplierStock: integer("supplier_stock").notNull().default(0),
    warehouseStock: integer("warehouse_stock").notNull().default(0),
    costPriceAmount: text("cost_price_amount"),
    costPriceCurrency: text("cost_price_currency"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("variants_internal_id_unique").on(t.internalId),
    index("variants_product_idx").on(t.productId, t.position, t.id),
    index("variants_ean_idx").on(t.ean),
    index("variants_sku_idx").on(sql`${t.sku} COLLATE NOCASE`),
    uniqueIndex("variants_supplier_sku_unique")
      .on(t.supplierId, sql`${t.sku} COLLATE NOCASE`)
      .where(sql`${t.supplierId} IS NOT NULL AND ${t.sku} IS NOT NULL`),
  ],
);

export const variantTranslations = sqliteTable(
  "variant_translations",
  {
    variantId: owner("variant_id", () => variants.id),
    locale: text("locale").notNull(),
    name: text("name"),
  },
  (t) => [primaryKey({ columns: [t.variantId, t.locale] })],
);

/** One row per variant and pricing market; amounts are decimal strings in the market currency. */
export const variantPrices = sqliteTable(
  "variant_prices",
  {
    variantId: owner("variant_id", () => variants.id),
    market: text("market").notNull(),
    currency: text("currency").notNull(),
    listPrice: text("list_price").notNull(),
    offerPrice: text("offer_price"),
    flashPrice: text("flash_price"),
    flashValidFrom: text("flash_valid_from"),
    flashValidUntil: text("flash_valid_until"),
  },
  (t) => [primaryKey({ columns: [t.variantId, t.market] })],
);

/** The tables of a product and its variants, parents before children: the order their rows are inserted in. */
export const PRODUCT_TABLES = [
  "products",
  "product_translations",
  "product_images",
  "product_categories",
  "variants",
  "variant_translations",
  "variant_prices",
] as const;
