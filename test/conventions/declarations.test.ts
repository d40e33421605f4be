import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { column } from "../../src/conventions/column-field.ts";
import { defineResource } from "../../src/conventions/resource.ts";
import { translatedColumn } from "../../src/conventions/translated-column.ts";
import { columnChanges } from "../../src/conventions/write/column-changes.ts";
import { brands, brandTranslations, suppliers } from "../../src/db/schema/index.ts";

/**
 * A declaration is typed against its contract item schema: `npm run typecheck` fails on a field
 * missing from it, one the contract lacks, or one whose rendered type the contract does not allow
 * (each `@ts-expect-error` below must meet its error). The `it`s check what only runs.
 */

type SupplierRow = typeof suppliers.$inferSelect;
type BrandRow = typeof brands.$inferSelect;
type BrandTranslationRow = typeof brandTranslations.$inferSelect;

const common = {
  label: "Thing",
  plural: "Things",
  tag: "Things",
  localized: false,
  sorts: {},
  defaultSort: "id_asc",
};
const ofSuppliers = { ...common, name: "things", path: "/things", table: suppliers, idColumn: suppliers.id };
const ofBrands = { ...common, name: "brands", path: "/brands", table: brands, idColumn: brands.id };

const Thing = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  summary: z.string().optional(),
});
type ThingTypes = { row: SupplierRow; item: typeof Thing };

const thing = defineResource<ThingTypes>({
  ...ofSuppliers,
  item: Thing,
  fields: {
    id: column(suppliers.id, "fixed"),
    name: column(suppliers.name, "default"),
    description: column(suppliers.description),
    summary: { render: (r) => `${r.name}: ${r.description ?? ""}` },
  },
});

defineResource<ThingTypes>({
  ...ofSuppliers,
  item: Thing,
  // @ts-expect-error `summary` is in the contract but not declared
  fields: {
    id: column(suppliers.id, "fixed"),
    name: column(suppliers.name),
    description: column(suppliers.description),
  },
});

defineResource<ThingTypes>({
  ...ofSuppliers,
  item: Thing,
  fields: {
    id: column(suppliers.id, "fixed"),
    name: column(suppliers.name),
    description: column(suppliers.description),
    summary: { render: () => "" },
    // @ts-expect-error `internal_id` is not in the contract
    internal_id: column(suppliers.internalId),
  },
});

defineResource<ThingTypes>({
  ...ofSuppliers,
  item: Thing,
  fields: {
    // @ts-expect-error a string column where the contract has an integer
    id: column(suppliers.name, "fixed"),
    name: column(suppliers.name),
    description: column(suppliers.description),
    summary: { render: () => "" },
  },
});

defineResource<ThingTypes>({
  ...ofSuppliers,
  item: Thing,
  fields: {
    id: column(suppliers.id, "fixed"),
    // @ts-expect-error a nullable column where the contract's `name` is never null
    name: column(suppliers.description),
    description: column(suppliers.description),
    summary: { render: () => "" },
  },
});

defineResource<ThingTypes>({
  ...ofSuppliers,
  // @ts-expect-error the declaration's `item` must be the schema its types name
  item: z.object({ id: z.number().int() }),
  fields: {
    id: column(suppliers.id, "fixed"),
    name: column(suppliers.name),
    description: column(suppliers.description),
    summary: { render: () => "" },
  },
});

const Translated = z.object({
  id: z.number().int(),
  translations: z.record(z.string(), z.object({ description: z.string().nullable().optional() })).optional(),
});
type TranslatedTypes = { row: BrandRow; translationRow: BrandTranslationRow; item: typeof Translated };
const brandTranslationTable = {
  table: brandTranslations,
  fk: brandTranslations.brandId,
  localeColumn: brandTranslations.locale,
};

defineResource<TranslatedTypes>({
  ...ofBrands,
  item: Translated,
  fields: { id: column(brands.id, "fixed") },
  translations: {
    ...brandTranslationTable,
    fields: { description: translatedColumn(brandTranslations.description) },
  },
});

// @ts-expect-error the contract has `translations`: the declaration must have them
defineResource<TranslatedTypes>({
  ...ofBrands,
  item: Translated,
  fields: { id: column(brands.id, "fixed") },
});

defineResource<TranslatedTypes>({
  ...ofBrands,
  item: Translated,
  fields: { id: column(brands.id, "fixed") },
  translations: {
    ...brandTranslationTable,
    fields: {
      description: translatedColumn(brandTranslations.description),
      // @ts-expect-error `long_name` is not among the contract's translated fields
      long_name: translatedColumn(brandTranslations.longName),
    },
  },
});

defineResource<TranslatedTypes>({
  ...ofBrands,
  item: Translated,
  fields: { id: column(brands.id, "fixed") },
  translations: {
    ...brandTranslationTable,
    // @ts-expect-error a JSON object where the contract has a string
    fields: { description: translatedColumn(brandTranslations.sizeGuideFile) },
  },
});

const Priced = z.object({
  id: z.number().int(),
  prices: z.record(z.string(), z.object({ list: z.string(), offer: z.string().optional() })).optional(),
  brand: z.object({ id: z.number().int() }).optional(),
});
const prices = { render: () => ({ m: { list: "1.00", offer: "0.90" } }) };

// A field rendered `into` a shared key is declared with that key; an include is named as one.
defineResource<{ row: BrandRow; item: typeof Priced; includes: "brand"; into: { list: "prices" } }>({
  ...ofBrands,
  item: Priced,
  fields: {
    id: column(brands.id, "fixed"),
    list: { into: "prices", render: () => ({ m: { list: "1.00" } }) },
    prices,
  },
  includes: { brand: { ...thingInclude() } },
});

defineResource<{ row: BrandRow; item: typeof Priced; includes: "brand" }>({
  ...ofBrands,
  item: Priced,
  fields: {
    id: column(brands.id, "fixed"),
    // @ts-expect-error `list` renders into `prices` but the types do not say so
    list: { into: "prices", render: () => ({ m: { list: "1.00" } }) },
    prices,
  },
  includes: { brand: { ...thingInclude() } },
});

defineResource<{ row: BrandRow; item: typeof Priced; includes: "brand"; into: { list: "prices" } }>({
  ...ofBrands,
  item: Priced,
  fields: {
    id: column(brands.id, "fixed"),
    // @ts-expect-error what `list` renders into `prices` lacks the contract's `list`
    list: { into: "prices", render: () => ({ m: { offer: "0.90" } }) },
    prices,
  },
  includes: { brand: { ...thingInclude() } },
});

defineResource<{ row: BrandRow; item: typeof Priced; into: { list: "prices" } }>({
  ...ofBrands,
  item: Priced,
  // @ts-expect-error `brand` is neither declared as a field nor as an include
  fields: {
    id: column(brands.id, "fixed"),
    list: { into: "prices", render: () => ({ m: { list: "1.00" } }) },
    prices,
  },
});

function thingInclude() {
  return {
    resource: () => thing,
    kind: "one" as const,
    query: () => {
      throw new Error("not run");
    },
    childIds: () => {
      throw new Error("not run");
    },
    group: () => new Map(),
  };
}

describe("resource declarations", () => {
  it("render a column field as the row holds it", () => {
    const row = { id: 3, name: "Acme", internalId: "S-3", description: null } as SupplierRow;
    expect(thing.fields.name?.render(row, {}, {} as never)).toBe("Acme");
    expect(thing.fields.description?.render(row, {}, {} as never)).toBeNull();
  });

  it("refuse a column of another table than the declaration's", () => {
    expect(() =>
      defineResource<ThingTypes>({
        ...ofSuppliers,
        item: Thing,
        fields: {
          id: column(brands.id, "fixed"),
          name: column(suppliers.name),
          description: column(suppliers.description),
          summary: { render: () => "" },
        },
      }),
    ).toThrow("things: columns of another table: id");
  });

  it("write the column fields a body sends, under their column keys, and nothing else", () => {
    const body = { id: undefined, name: "Acme", description: null, summary: "x", other: 1 };
    expect(columnChanges(thing, body)).toEqual({ name: "Acme", description: null });
  });
});
