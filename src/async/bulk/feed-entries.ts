import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type FeedResource, feedEntries } from "../../db/change-feed.ts";
import * as t from "../../db/schema/index.ts";
import type { RowOps } from "./row-ops.ts";

/**
 * The change feed entries of a bulk plan (src/db/change-feed.ts), run in its batch after its
 * effects: one per entity its rows belong to that the effects changed. A changed product or variant
 * is one its effects stamped with the plan's `now` (row-ops.ts; a changed variant stamps its
 * product too); a price list changed when one of the plan's fixed prices of it was stamped, or
 * deleted (a plan deletes only prices that exist). A row stamped earlier in the same second by
 * another commit counts as changed, as for `writes.unchanged_records` (src/async/bulk/unchanged.ts).
 */

/** The rows of each table a bulk plan writes, and the column naming the entity each belongs to. */
const BELONGS_TO: { table: SQLiteTable; column: SQLiteColumn; resource: FeedResource }[] = [
  { table: t.products, column: t.products.id, resource: "products" },
  { table: t.productTranslations, column: t.productTranslations.productId, resource: "products" },
  { table: t.productImages, column: t.productImages.productId, resource: "products" },
  { table: t.productCategories, column: t.productCategories.productId, resource: "products" },
  { table: t.variants, column: t.variants.id, resource: "variants" },
  { table: t.variants, column: t.variants.productId, resource: "products" },
  { table: t.variantTranslations, column: t.variantTranslations.variantId, resource: "variants" },
  { table: t.variantPrices, column: t.variantPrices.variantId, resource: "variants" },
  { table: t.priceListVariantPrices, column: t.priceListVariantPrices.priceListId, resource: "price_lists" },
];

export function bulkFeedEntries(ops: RowOps, now: string): SQL[] {
  const columns: Record<string, string[]> = {};
  for (const { table, column } of BELONGS_TO) {
    const name = getTableName(table);
    columns[name] = [...(columns[name] ?? []), column.name];
  }
  // A price list's fixed prices are also found by variant (was one of them stamped?).
  columns[getTableName(t.priceListVariantPrices)]?.push(t.priceListVariantPrices.variantId.name);
  const ids: Record<FeedResource, Set<number>> = Object.fromEntries(
    BELONGS_TO.map(({ resource }) => [resource, new Set<number>()]),
  ) as Record<FeedResource, Set<number>>;
  const deletedPricesOf = new Set<number>();
  const pricedVariants = new Set<number>();
  for (const op of ops.project(columns)) {
    for (const { table, column, resource } of BELONGS_TO) {
      if (getTableName(table) !== op.table) continue;
      const id = op.row[column.name];
      if (typeof id !== "number") continue;
      ids[resource].add(id);
      if (table === t.priceListVariantPrices && op.kind === "delete") deletedPricesOf.add(id);
    }
    if (op.table === getTableName(t.priceListVariantPrices) && typeof op.row.variant_id === "number")
      pricedVariants.add(op.row.variant_id);
  }
  const json = (set: Set<number>) => JSON.stringify([...set]);
  const list = (set: Set<number>) => sql`SELECT value FROM json_each(${json(set)})`;
  const out: SQL[] = [];
  if (ids.variants.size > 0) {
    out.push(
      feedEntries(
        "variants",
        { each: list(ids.variants) },
        {
          where: sql`${t.variants.updatedAt} = ${now}`,
          changedAt: now,
        },
      ),
    );
  }
  if (ids.products.size + ids.variants.size > 0) {
    const ofVariants = sql`SELECT v.product_id AS value FROM json_each(${json(ids.variants)}) AS j CROSS JOIN variants AS v ON v.id = j.value`;
    out.push(
      feedEntries(
        "products",
        { each: sql`${list(ids.products)} UNION ${ofVariants}` },
        {
          where: sql`${t.products.updatedAt} = ${now}`,
          changedAt: now,
        },
      ),
    );
  }
  if (ids.price_lists.size > 0) {
    const stamped = sql`EXISTS (SELECT 1 FROM json_each(${json(pricedVariants)}) AS pv CROSS JOIN price_list_variant_prices AS x
      ON x.price_list_id = price_lists.id AND x.variant_id = pv.value WHERE x.updated_at = ${now})`;
    const deleted = sql`price_lists.id IN (${list(deletedPricesOf)})`;
    out.push(
      feedEntries(
        "price_lists",
        { each: list(ids.price_lists) },
        {
          where: sql`(${deleted} OR ${stamped})`,
          changedAt: now,
        },
      ),
    );
  }
  return out;
}
