import type { z } from "@hono/zod-openapi";
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { boolFilter, idsFilter, stringsFilter } from "../../conventions/filters.ts";
import { loader } from "../../conventions/loader.ts";
import { type AnyResource, defineResource, type Loader } from "../../conventions/resource.ts";
import { priceListDiscounts, priceLists } from "../../db/schema/index.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import { money, toScale } from "../../lib/money.ts";
import { brandResource } from "../brands/brands.resource.ts";
import { categoryResource } from "../categories/categories.resource.ts";
import { DISCOUNT_KIND_TABLES, type DiscountKind } from "./price-lists.discount-kinds.ts";
import { PriceListSchema } from "./price-lists.schema.ts";

type PriceListRow = typeof priceLists.$inferSelect;
type PriceList = z.output<typeof PriceListSchema>;

/** The contract's discount entry of one kind (`category_discounts[i]`), its targets rendered. */
type Discount<K extends DiscountKind> = NonNullable<PriceList[`${K}_discounts`]>[number];

/** A discount row's target (null for a discount without one): categories and brands are keyed by `id`. */
const targetOf = (row: { target: Record<string, unknown> | null }) => row.target as { id: number } | null;

/**
 * The discounts of one kind for a page of price lists, with their target rows (categories or
 * brands, rendered by `targetResource`) in one query; the engine renders the targets in their
 * default representation (nested), listed under the entry's key of targets.
 */
function discountsLoader<K extends DiscountKind>(
  kind: K,
  targetResource: () => AnyResource,
): Loader<Discount<K>[]> {
  const { link, target, targets: key } = DISCOUNT_KIND_TABLES[kind];
  return loader({
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
        // The link's key index named: with the demo seed's statistics (a few link rows) SQLite read
        // the whole link table once per discount instead.
        .leftJoin(
          sql`${link.table}${indexedBy(link.table, [link.discountId.name])}`,
          eq(link.discountId, priceListDiscounts.id),
        )
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
        resource: targetResource,
        rows: (rows) => rows.flatMap((r) => targetOf(r) ?? []),
      },
    },
    collect: (rows, nested) => {
      const rendered = nested[key] ?? new Map();
      const byList = new Map<number, Map<number, { targets: unknown[]; discount: string }>>();
      for (const r of rows) {
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
        const targetRow = targetOf(r);
        const object = targetRow ? rendered.get(targetRow.id) : undefined;
        if (object) entry.targets.push(object);
      }
      // The targets are the engine's renderings of their resource's default representation, which
      // the contract's entry lists under `key` (the contract test checks the two agree).
      const entries = (discounts: Map<number, { targets: unknown[]; discount: string }>) =>
        [...discounts.values()].map(
          (d) => ({ [key]: d.targets, discount: d.discount }) as unknown as Discount<K>,
        );
      return new Map([...byList].map(([listId, discounts]) => [listId, entries(discounts)]));
    },
  });
}

const priceListLoaders = {
  categoryDiscounts: discountsLoader("category", () => categoryResource),
  brandDiscounts: discountsLoader("brand", () => brandResource),
};

/** Price lists: discounts embed their categories and brands, which follow `locales`. */
export const priceListResource = defineResource<{
  row: PriceListRow;
  item: typeof PriceListSchema;
  loaders: typeof priceListLoaders;
}>({
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
  cache: ["price_lists", "brands", "categories"],
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
      render: (r, related) => related.categoryDiscounts?.get(r.id) ?? [],
    },
    brand_discounts: {
      kind: "default",
      needs: ["brandDiscounts"],
      render: (r, related) => related.brandDiscounts?.get(r.id) ?? [],
    },
  },
  loaders: priceListLoaders,
  filters: {
    internal_ids: stringsFilter(priceLists.internalId, "Price-list internal ids (exact)."),
    is_active: boolFilter(priceLists.isActive, "true: only active price lists; false: only inactive ones."),
    price_list_ids: idsFilter(priceLists.id, "Price-list ids (exact)."),
  },
  sorts: { id: { column: priceLists.id } },
  defaultSort: "id_asc",
});
