import { env } from "cloudflare:test";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { idQuery } from "../../src/conventions/id-set.ts";
import { createDb } from "../../src/db/client.ts";
import { productImages, products, productTranslations } from "../../src/db/schema/index.ts";

const db = createDb(env.DB);

/** A page query as the engine nests it in its loaders: a filter, an order, a limit and an offset. */
const pageQuery = () =>
  db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.status, "published"), eq(products.productKind, "physical")))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(25)
    .offset(50);

/** Two loaders filtering on the same id set, as drizzle would build them from the builder itself. */
const loaders = (filter: (column: SQLiteColumn) => SQL) => [
  db.select({ id: productImages.id }).from(productImages).where(filter(productImages.productId)).toSQL(),
  db
    .select({ name: productTranslations.name })
    .from(productTranslations)
    .where(
      and(filter(productTranslations.productId), inArray(productTranslations.locale, ["de-DE", "en-GB"])),
    )
    .toSQL(),
];

describe("idQuery", () => {
  it("renders the same statements and parameters as the nested select itself", () => {
    const ids = idQuery(pageQuery());
    const page = pageQuery();
    expect(loaders((column) => ids.in(column))).toEqual(loaders((column) => inArray(column, page)));
  });

  it("builds the nested select once however many loaders filter on it", () => {
    const page = pageQuery();
    let builds = 0;
    const getSQL = page.getSQL.bind(page);
    page.getSQL = () => {
      builds++;
      return getSQL();
    };
    const ids = idQuery(page);
    loaders((column) => ids.in(column));
    loaders((column) => ids.in(column));
    expect(builds).toBe(1);
  });

  it("keeps the select as it is when its text has a `?` that is not a parameter", () => {
    const odd = () =>
      db
        .select({ id: products.id })
        .from(products)
        .where(sql`${products.internalId} <> '?' AND ${products.id} > ${3}`)
        .limit(5);
    const page = odd();
    expect(loaders((column) => idQuery(odd()).in(column))).toEqual(
      loaders((column) => inArray(column, page)),
    );
  });
});
