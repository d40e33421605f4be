import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  productCategories,
  productImages,
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

interface OwnerLink {
  /** The table whose rows are stamped. */
  owner: SQLiteTable;
  /** The SQL name of the column naming the owner's row. */
  column: string;
}

/** The table `column` references, by its foreign key: the owner of the column's rows. */
function ownerOf(column: SQLiteColumn): OwnerLink {
  const fk = getTableConfig(column.table).foreignKeys.find((f) => f.reference().columns[0] === column);
  if (!fk) throw new Error(`${column.name} references no table`);
  return { owner: fk.reference().foreignTable, column: column.name };
}

/** Child table → its owner and the column naming the owner, from the columns below. */
export const STAMPED_OWNERS: ReadonlyMap<SQLiteTable, OwnerLink> = new Map(
  [
    productTranslations.productId,
    productImages.productId,
    productCategories.productId,
    variantTranslations.variantId,
    variantPrices.variantId,
  ].map((column) => [column.table, ownerOf(column)]),
);

/** A stamped variant stamps its product: the variant table, its owner and the column naming it. */
export const ROLLUP = { table: variants, ...ownerOf(variants.productId) };
