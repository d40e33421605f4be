import type { z } from "@hono/zod-openapi";
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { column } from "../../conventions/column-field.ts";
import { idsFilter, stringsFilter } from "../../conventions/filters.ts";
import { type AnyResource, defineResource, type Loader } from "../../conventions/resource.ts";
import {
  brands,
  categories,
  priceListDiscountBrands,
  priceListDiscountCategories,
  priceListDiscounts,
  priceLists,
} from "../../db/schema/index.ts";
import { boolParam } from "../../http/params.ts";
import { money, toScale } from "../../lib/money.ts";
import { brandResource } from "../brands/brands.resource.ts";
import { categoryResource } from "../categories/categories.resource.ts";
import { PriceListSchema } from "./price-lists.schema.ts";

type PriceListRow = typeof priceLists.$inferSelect;
type PriceList = z.output<typeof PriceListSchema>;

interface DiscountJoinRow {
  priceListId: number;
  discountId: number;
  discount: string;
  target: { id: number } | null;
}

/**
 * The discounts of one kind for a page of price lists, with their target rows (categories or
 * brands) in one query; the engine renders the targets in their default representation (nested).
 */
function discountsLoader(
  kind: "category" | "brand",
  link: { table: SQLiteTable; discountId: SQLiteColumn; targetId: SQLiteColumn; position: SQLiteColumn },
  target: { table: SQLiteTable; id: SQLiteColumn; resource: () => AnyResource },
  key: "categories" | "brands",
): Loader {
  return {
    query: (db, ids) =>
      db
        .select({
          // Aliased: in a D1 batch rows map by column name, and the target table has an `id` too.
          priceListId: sql<number>`${priceListDiscounts.priceListId}`.as("__list_id"),
          discountId: sql<number>`${priceListDiscounts.id}`.as("__discount_id"),
          discount: sql<string>`${priceListDiscounts.discount}`.as("__discount"),
          target: getTableColumns(target.table),
        })
        .from(priceListDiscounts)
        .leftJoin(link.table, eq(link.discountId, priceListDiscounts.id))
        .leftJoin(target.table, eq(target.id, link.targetId))
        .where(and(ids.in(priceListDiscounts.priceListId), eq(priceListDiscounts.kind, kind)))
        .orderBy(
          asc(priceListDiscounts.priceListId),
          asc(priceListDiscounts.position),
          asc(priceListDiscounts.id),
          asc(link.position),
        ),
    nested: {
      [key]: {
        resource: target.resource,
        rows: (result) => (result as DiscountJoinRow[]).flatMap((r) => (r.target ? [r.target] : [])),
      },
    },
    collect: (result, nested) => {
      const rendered = nested[key] ?? new Map();
      const byList = new Map<number, Map<number, { targets: unknown[]; discount: string }>>();
      for (const r of result as DiscountJoinRow[]) {
        let discounts = byList.get(r.priceListId);
        if (!discounts) {
          discounts = new Map();
          byList.set(r.priceListId, discounts);
        }
        let entry = discounts.get(r.discountId);
        if (!entry) {
          entry = { targets: [], discount: toScale(r.discount, 2) };
          discounts.set(r.discountId, entry);
        }
        const object = r.target ? rendered.get(r.target.id) : undefined;
        if (object) entry.targets.push(object);
      }
      return new Map(
        [...byList].map(([listId, discounts]) => [
          listId,
          [...discounts.values()].map((d) => ({ [key]: d.targets, discount: d.discount })),
        ]),
      );
    },
  };
}

/** Price lists: discounts embed their categories and brands, which follow `locales`. */
export const priceListResource = defineResource<{ row: PriceListRow; item: typeof PriceListSchema }>({
  name: "price-lists",
  label: "Price list",
  path: "/price-lists",
  tag: "Price lists",
  plural: "Price lists",
  item: PriceListSchema,
  description:
    "Price lists without their fixed variant prices. `locales` applies to the categories and brands nested in the discounts.",
  table: priceLists,
  idColumn: priceLists.id,
  // No translations of its own: `locales` applies to the nested categories and brands.
  localized: true,
  // Discounts embed brands and categories.
  cache: ["price_lists", "catalog"],
  fields: {
    id: column(priceLists.id, "fixed"),
    internal_id: column(priceLists.internalId, "default"),
    is_active: column(priceLists.isActive, "default"),
    minimum_order_amount: {
      kind: "default",
      render: (r) => money(r.minimumOrderAmount, r.minimumOrderCurrency),
    },
    // Kept on the row by the child tables' triggers (migration 0006), never written from a body.
    customers_count: { kind: "default", render: (r) => r.customersCount },
    variant_prices_count: { kind: "default", render: (r) => r.variantPricesCount },
    global_discount: { kind: "default", render: (r) => toScale(r.globalDiscount, 2) },
    category_discounts: {
      kind: "default",
      needs: ["categoryDiscounts"],
      render: (r, related) => (related.categoryDiscounts?.get(r.id) as PriceList["category_discounts"]) ?? [],
    },
    brand_discounts: {
      kind: "default",
      needs: ["brandDiscounts"],
      render: (r, related) => (related.brandDiscounts?.get(r.id) as PriceList["brand_discounts"]) ?? [],
    },
  },
  loaders: {
    categoryDiscounts: discountsLoader(
      "category",
      {
        table: priceListDiscountCategories,
        discountId: priceListDiscountCategories.discountId,
        targetId: priceListDiscountCategories.categoryId,
        position: priceListDiscountCategories.position,
      },
      { table: categories, id: categories.id, resource: () => categoryResource },
      "categories",
    ),
    brandDiscounts: discountsLoader(
      "brand",
      {
        table: priceListDiscountBrands,
        discountId: priceListDiscountBrands.discountId,
        targetId: priceListDiscountBrands.brandId,
        position: priceListDiscountBrands.position,
      },
      { table: brands, id: brands.id, resource: () => brandResource },
      "brands",
    ),
  },
  filters: {
    internal_ids: stringsFilter(priceLists.internalId, "Price-list internal ids (exact)."),
    is_active: {
      schema: boolParam("true: only active price lists; false: only inactive ones."),
      where: (v: boolean) => eq(priceLists.isActive, v),
    },
    price_list_ids: idsFilter(priceLists.id, "Price-list ids (exact)."),
  },
  sorts: { id: { column: priceLists.id } },
  defaultSort: "id_asc",
});
