import { z } from "@hono/zod-openapi";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { column } from "../../src/conventions/column-field.ts";
import { filter } from "../../src/conventions/filters.ts";
import { loader } from "../../src/conventions/loader.ts";
import { defineResource, type FilterDef } from "../../src/conventions/resource.ts";
import { keyedColumns } from "../../src/db/keyed-columns.ts";
import { brands, products } from "../../src/db/schema/index.ts";
import { boolParam, intParam } from "../../src/http/params.ts";

/**
 * Filters and loaders are typed end to end: `npm run typecheck` fails on a `where` that takes
 * another value than its schema parses to, a hand-written filter, a field that needs an undeclared
 * loader or reads a loader's value as another type (each `@ts-expect-error` below must meet its
 * error). The `it`s check what only runs.
 */

type BrandRow = typeof brands.$inferSelect;

const common = {
  name: "things",
  label: "Thing",
  plural: "Things",
  tag: "Things",
  path: "/things",
  localized: false,
  sorts: {},
  defaultSort: "id_asc",
  table: brands,
  idColumn: brands.id,
};

const isActive = filter(boolParam("Active."), (v) => eq(brands.id, v ? 1 : 0));

// @ts-expect-error the schema parses to a boolean, the condition takes a number
filter(boolParam("Active."), (v: number) => eq(brands.id, v));

// @ts-expect-error a filter not made by `filter()`, whose `where` nothing checks against its schema
const handWritten: FilterDef = { schema: intParam(), where: (v: string) => eq(brands.name, v) };

const thingLoaders = {
  productCount: loader({
    query: (db, ids) =>
      db
        .select(keyedColumns({ brandId: products.brandId, n: count() }))
        .from(products)
        .where(ids.in(products.brandId))
        .groupBy(products.brandId),
    // The rows are typed as the query selects them: `brandId` may be null, `n` is a number.
    collect: (rows) => new Map(rows.flatMap((r) => (r.brandId === null ? [] : [[r.brandId, r.n] as const]))),
  }),
};

const Counted = z.object({ id: z.number().int(), product_count: z.number().int().optional() });
type CountedTypes = { row: BrandRow; item: typeof Counted; loaders: typeof thingLoaders };

const counted = defineResource<CountedTypes>({
  ...common,
  item: Counted,
  fields: {
    id: column(brands.id, "fixed"),
    product_count: { needs: ["productCount"], render: (r, related) => related.productCount?.get(r.id) ?? 0 },
  },
  loaders: thingLoaders,
  filters: { is_active: isActive },
});

defineResource<CountedTypes>({
  ...common,
  item: Counted,
  fields: {
    id: column(brands.id, "fixed"),
    // @ts-expect-error `variantCount` is not one of the declaration's loaders
    product_count: { needs: ["variantCount"], render: () => 0 },
  },
  loaders: thingLoaders,
});

defineResource<CountedTypes>({
  ...common,
  item: Counted,
  fields: {
    id: column(brands.id, "fixed"),
    product_count: {
      needs: ["productCount"],
      // @ts-expect-error the loader collects a number per row, not a list
      render: (r, related) => related.productCount?.get(r.id)?.length ?? 0,
    },
  },
  loaders: thingLoaders,
});

describe("typed filters and loaders", () => {
  it("a filter made by filter() hands its condition the value as the schema parsed it", () => {
    const parsed = isActive.schema.parse("true");
    expect(parsed).toBe(true);
    expect(isActive.where(parsed as never, {} as never)).toEqual(eq(brands.id, 1));
  });

  it("a field reads what its loader collected for the row", () => {
    const related = { productCount: new Map([[7, 3]]) };
    expect(counted.fields.product_count?.render({ id: 7 } as BrandRow, related, {} as never)).toBe(3);
    expect(counted.fields.product_count?.render({ id: 8 } as BrandRow, related, {} as never)).toBe(0);
    expect(handWritten).toBeDefined();
  });
});
