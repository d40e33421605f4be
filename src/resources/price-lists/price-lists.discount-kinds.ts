import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  brands,
  categories,
  type DISCOUNT_KINDS,
  priceListDiscountBrands,
  priceListDiscountCategories,
} from "../../db/schema/index.ts";
import type { PriceListCreate } from "./price-lists.schema.ts";

/** `price_list_discounts.kind`: what a discount applies to. */
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** A discount entry of the body (`category_discounts[i]`), whose target ids are under one key. */
type DiscountEntry<K extends DiscountKind> = NonNullable<PriceListCreate[`${K}_discounts`]>[number];

interface DiscountKindDef<K extends DiscountKind> {
  /** The key of a discount entry's targets, in the body and in the item (`categories`). */
  targets: Exclude<keyof DiscountEntry<K>, "discount"> & string;
  /** The table linking a discount to its targets, in the entry's order. */
  link: { table: SQLiteTable; discountId: SQLiteColumn; targetId: SQLiteColumn; position: SQLiteColumn };
  /** The targets' own table, keyed by `id`. */
  target: { table: SQLiteTable; id: SQLiteColumn };
}

/**
 * Per kind of discount, where its targets are stored: the discounts are read
 * (price-lists.resource.ts) and written (price-lists.write.ts) through this one table of kinds.
 */
export const DISCOUNT_KIND_TABLES: { [K in DiscountKind]: DiscountKindDef<K> } = {
  category: {
    targets: "categories",
    link: {
      table: priceListDiscountCategories,
      discountId: priceListDiscountCategories.discountId,
      targetId: priceListDiscountCategories.categoryId,
      position: priceListDiscountCategories.position,
    },
    target: { table: categories, id: categories.id },
  },
  brand: {
    targets: "brands",
    link: {
      table: priceListDiscountBrands,
      discountId: priceListDiscountBrands.discountId,
      targetId: priceListDiscountBrands.brandId,
      position: priceListDiscountBrands.position,
    },
    target: { table: brands, id: brands.id },
  },
};
