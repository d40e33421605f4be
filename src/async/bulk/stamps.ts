import { getTableName } from "drizzle-orm";
import {
  productCategories,
  productImages,
  products,
  productTranslations,
  variantPrices,
  variants,
  variantTranslations,
} from "../../db/schema/index.ts";

/*
 * Which rows stamp which owner's `updated_at` when a bulk write changes them (DECISIONS §14: a
 * record whose values equal what is stored keeps `updated_at`). A row of a stamped table stamps
 * itself (bulk-sql.ts, STAMP_COLUMN); the tables below stamp the row they belong to, and a variant
 * stamped by anything stamps its product (incremental synchronization reads the product's
 * `updated_at` for price and stock changes).
 */

/** Child table → its owner table and the column naming the owner, by SQL names. */
export const STAMPED_OWNERS: Readonly<Record<string, { owner: string; column: string }>> = {
  [getTableName(productTranslations)]: { owner: getTableName(products), column: "product_id" },
  [getTableName(productImages)]: { owner: getTableName(products), column: "product_id" },
  [getTableName(productCategories)]: { owner: getTableName(products), column: "product_id" },
  [getTableName(variantTranslations)]: { owner: getTableName(variants), column: "variant_id" },
  [getTableName(variantPrices)]: { owner: getTableName(variants), column: "variant_id" },
};

/** A stamped variant stamps its product: the variant table, its parent and the column naming it. */
export const ROLLUP = { table: getTableName(variants), parent: getTableName(products), column: "product_id" };
