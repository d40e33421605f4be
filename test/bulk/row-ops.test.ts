import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { RowOps } from "../../src/async/bulk/row-ops.ts";
import { productCategories, products, variantPrices, variants } from "../../src/db/schema/index.ts";

const dialect = new SQLiteSyncDialect();

describe("RowOps", () => {
  it("writes a table after the tables its foreign keys reference, whatever order the plan names them in", () => {
    const ops = new RowOps();
    ops.insert(variantPrices, { variant_id: 1, market: "market_es", currency: "EUR", list_price: "1.00" });
    ops.insert(variants, { id: 1, product_id: 1, status: "published" });
    ops.insert(productCategories, { product_id: 1, category_id: 1, position: 0 });
    ops.insert(products, { id: 1, product_structure: "simple", status: "published" });
    const tables = ops
      .statements(new Set())
      .map((statement) => /^INSERT INTO "(\w+)"/.exec(dialect.sqlToQuery(statement).sql)?.[1]);
    // Tables at one depth keep the order the plan first named them in.
    expect(tables).toEqual(["products", "variants", "product_categories", "variant_prices"]);
  });
});
