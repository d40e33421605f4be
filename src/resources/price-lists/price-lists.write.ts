import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { idList } from "../../conventions/id-set.ts";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { runWrite } from "../../conventions/write/run-write.ts";
import { generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { batch } from "../../db/client.ts";
import { keyedColumns } from "../../db/keyed-columns.ts";
import { brands, categories, priceListDiscounts, priceLists } from "../../db/schema/index.ts";
import type { AppEnv, Db } from "../../env.ts";
import { ApiError, notFound, type ProblemDetailItem } from "../../http/problem.ts";
import { toScale } from "../../lib/money.ts";
import { isoSeconds } from "../../lib/time.ts";
import { DISCOUNT_KIND_TABLES, type DiscountKind } from "./price-lists.discount-kinds.ts";
import { priceListResource } from "./price-lists.resource.ts";
import type { PriceListCreate, PriceListUpdate } from "./price-lists.schema.ts";

const UNIQUE = {
  price_lists_internal_id_unique: { path: "internal_id", message: "is already used by another price list" },
};

/** The id of the row the same batch just inserted (D1 runs a batch as one serialized transaction). */
const justInsertedId = sql`(SELECT MAX(id) FROM price_lists)`;

type CategoryDiscounts = PriceListCreate["category_discounts"];
type BrandDiscounts = PriceListCreate["brand_discounts"];

/**
 * Inserts the discounts of one kind and their links with two statements whatever their number:
 * both read the same JSON parameter (`[{discount, ids}]`), the links joining each entry to the
 * discount row just written at its position. (INSERT … SELECT through the query builder: a raw
 * `db.run(sql)` with bound parameters cannot go into a drizzle D1 batch.) Selected columns follow
 * the tables' column order (`id` NULL: assigned by SQLite).
 */
function discountStatements(
  db: Db,
  priceListId: number | SQL,
  kind: DiscountKind,
  entries: { discount: string; ids: number[] }[],
): BatchItem<"sqlite">[] {
  if (entries.length === 0) return [];
  const json = JSON.stringify(entries.map((e) => ({ discount: toScale(e.discount, 2), ids: e.ids })));
  return [
    db
      .insert(priceListDiscounts)
      .select(
        sql`SELECT NULL, ${priceListId}, ${kind}, e.key, json_extract(e.value, '$.discount') FROM json_each(${json}) AS e`,
      ),
    db
      .insert(DISCOUNT_KIND_TABLES[kind].link.table)
      .select(
        sql`SELECT d.id, i.value, i.key FROM json_each(${json}) AS e CROSS JOIN ${priceListDiscounts} AS d ON d.price_list_id = ${priceListId} AND d.kind = ${kind} AND d.position = e.key CROSS JOIN json_each(e.value, '$.ids') AS i`,
      ),
  ];
}

/** Deletes every discount of one kind (and its links) before the replacement is written. */
function clearDiscounts(db: Db, priceListId: number, kind: DiscountKind): BatchItem<"sqlite">[] {
  const { link } = DISCOUNT_KIND_TABLES[kind];
  const ofKind = and(eq(priceListDiscounts.priceListId, priceListId), eq(priceListDiscounts.kind, kind));
  return [
    db
      .delete(link.table)
      .where(
        inArray(
          link.discountId,
          db.select({ id: priceListDiscounts.id }).from(priceListDiscounts).where(ofKind),
        ),
      ),
    db.delete(priceListDiscounts).where(ofKind),
  ];
}

const categoryEntries = (d: CategoryDiscounts) => d.map((e) => ({ discount: e.discount, ids: e.categories }));
const brandEntries = (d: BrandDiscounts) => d.map((e) => ({ discount: e.discount, ids: e.brands }));

/** One problem per id of a discount's targets that is not among `known`, at its body path. */
function unknownTargets(kind: DiscountKind, entries: { ids: number[] }[], known: Set<number>) {
  const problems: ProblemDetailItem[] = [];
  entries.forEach((d, i) => {
    d.ids.forEach((id, j) => {
      if (!known.has(id))
        problems.push({
          location: "body",
          path: `${kind}_discounts.${i}.${DISCOUNT_KIND_TABLES[kind].targets}.${j}`,
          message: `${kind} ${id} does not exist`,
        });
    });
  });
  return problems;
}

/**
 * One round trip: which referenced categories and brands exist (and, for an update, the price list).
 * Unknown references are 400 `invalid_body`, one entry per bad reference with its path; they come
 * before the 404 of an unknown price list (the order of checks in README "Conventions").
 */
async function checkReferences(
  c: Context<AppEnv>,
  body: { category_discounts?: CategoryDiscounts; brand_discounts?: BrandDiscounts },
  priceListId?: number,
) {
  const db = c.get("db");
  const categoryIds = [...new Set((body.category_discounts ?? []).flatMap((d) => d.categories))];
  const brandIds = [...new Set((body.brand_discounts ?? []).flatMap((d) => d.brands))];
  if (priceListId === undefined && categoryIds.length === 0 && brandIds.length === 0) return;
  const [foundCategories, foundBrands, foundList] = await batch(c, [
    // Driven by the ids (a CROSS JOIN), so stale statistics cannot make either a scan of its table.
    db
      .select(keyedColumns({ id: categories.id }))
      .from(sql`${idList(categoryIds).rows("k")} CROSS JOIN ${categories} ON ${categories.id} = k.id`),
    db
      .select(keyedColumns({ id: brands.id }))
      .from(sql`${idList(brandIds).rows("k")} CROSS JOIN ${brands} ON ${brands.id} = k.id`),
    db
      .select({ id: priceLists.id })
      .from(priceLists)
      .where(eq(priceLists.id, priceListId ?? 0)),
  ]);
  const knownCategories = new Set(foundCategories.map((r) => r.id));
  const knownBrands = new Set(foundBrands.map((r) => r.id));
  const errors = [
    ...unknownTargets("category", categoryEntries(body.category_discounts ?? []), knownCategories),
    ...unknownTargets("brand", brandEntries(body.brand_discounts ?? []), knownBrands),
  ];
  if (errors.length > 0) {
    throw new ApiError("invalid_body", errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
  }
  if (priceListId !== undefined && foundList.length === 0) throw notFound("Price list");
}

/** Creates the price list, its discounts and their links in one batch; returns the new id. */
export async function createPriceList(c: Context<AppEnv>, body: PriceListCreate): Promise<number> {
  await checkReferences(c, body);
  const db = c.get("db");
  const statements: BatchItem<"sqlite">[] = [
    // The body carries `internal_id` and `is_active` (its schema requires them): with
    // `global_discount`, every NOT NULL column is set.
    db.insert(priceLists).values({
      ...columnChanges(priceListResource, body),
      globalDiscount: toScale(body.global_discount, 2),
      minimumOrderAmount: body.minimum_order_amount ? toScale(body.minimum_order_amount.amount, 2) : null,
      minimumOrderCurrency: body.minimum_order_amount?.currency ?? null,
    } as typeof priceLists.$inferInsert),
    ...discountStatements(db, justInsertedId, "category", categoryEntries(body.category_discounts)),
    ...discountStatements(db, justInsertedId, "brand", brandEntries(body.brand_discounts)),
    routeFeedEntry(db, "price_lists", justInsertedId),
    generationBump(db, ["price_lists"]),
    db.select({ id: priceLists.id }).from(priceLists).where(eq(priceLists.id, justInsertedId)),
  ];
  const results = await runWrite(c, UNIQUE, () => db.batch(statements as [BatchItem<"sqlite">]));
  return ((results[results.length - 1] as { id: number }[])[0] as { id: number }).id;
}

/** Changes only the fields sent; a sent discount array replaces that kind's discounts. */
export async function updatePriceList(c: Context<AppEnv>, id: number, body: PriceListUpdate): Promise<void> {
  await checkReferences(c, body, id);
  const db = c.get("db");
  const amount = body.minimum_order_amount;
  const changes = {
    ...columnChanges(priceListResource, body),
    ...(body.global_discount !== undefined ? { globalDiscount: toScale(body.global_discount, 2) } : {}),
    ...(amount !== undefined
      ? {
          minimumOrderAmount: amount ? toScale(amount.amount, 2) : null,
          minimumOrderCurrency: amount ? amount.currency : null,
        }
      : {}),
    updatedAt: isoSeconds(),
  };
  const statements: BatchItem<"sqlite">[] = [
    db.update(priceLists).set(changes).where(eq(priceLists.id, id)),
    ...(body.category_discounts
      ? [
          ...clearDiscounts(db, id, "category"),
          ...discountStatements(db, id, "category", categoryEntries(body.category_discounts)),
        ]
      : []),
    ...(body.brand_discounts
      ? [
          ...clearDiscounts(db, id, "brand"),
          ...discountStatements(db, id, "brand", brandEntries(body.brand_discounts)),
        ]
      : []),
    routeFeedEntry(db, "price_lists", id),
    generationBump(db, ["price_lists"]),
  ];
  await runWrite(c, UNIQUE, () => db.batch(statements as [BatchItem<"sqlite">]));
}
