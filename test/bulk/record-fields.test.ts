import { z } from "@hono/zod-openapi";
import { is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { BulkWrites } from "../../src/async/bulk/operation.ts";
import { BULK_OPERATIONS } from "../../src/resources/job-operations.ts";

/**
 * A bulk record field the job does not write is dropped without a word. Every field of every
 * operation's record must therefore be written through its resource's declaration (a field declared
 * as a plain column, or `translations` whose entry fields are declared translated columns), or be
 * listed among the operation's relations, which name what the processor writes (or matches) by hand.
 */

type Schema = z.core.$ZodType;

/** The object schema under optional, nullable, array and record wrappers, or null for a leaf. */
function objectIn(schema: Schema): z.ZodObject | null {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case "object":
      return schema as z.ZodObject;
    case "optional":
    case "nullable":
      return objectIn(def.innerType as Schema);
    case "array":
      return objectIn(def.element as Schema);
    case "record":
      return objectIn(def.valueType as Schema);
    default:
      return null;
  }
}

/** The record's fields (as dotted paths) that nothing writes. */
function unwrittenFields(record: z.ZodObject, writes: BulkWrites, path = ""): string[] {
  const out: string[] = [];
  for (const [name, schema] of Object.entries(record.shape as Record<string, Schema>)) {
    const at = `${path}${name}`;
    if (name === "translations") {
      const entry = objectIn(schema);
      const declared = writes.resource.translations?.fields ?? {};
      if (!entry) out.push(at);
      else
        for (const field of Object.keys(entry.shape))
          if (!declared[field]?.column) out.push(`${at}.${field}`);
      continue;
    }
    if (writes.resource.fields[name]?.column) continue;
    const relation = writes.relations?.[name];
    if (relation === undefined) out.push(at);
    else if (!is(relation, SQLiteTable)) {
      const nested = objectIn(schema);
      if (nested) out.push(...unwrittenFields(nested, relation, `${at}.`));
      else out.push(at);
    }
  }
  return out;
}

describe("bulk record fields", () => {
  for (const op of Object.values(BULK_OPERATIONS)) {
    it(`${op.type}: every record field is a declared column, translations or a listed relation`, () => {
      expect(unwrittenFields(op.record, op.writes)).toEqual([]);
    });
  }

  it("a field added to a record without a write is found, nested records and translations too", () => {
    const { products_bulk_upsert: op } = BULK_OPERATIONS;
    const variants = objectIn(op.record.shape.variants as Schema) as z.ZodObject;
    const translations = objectIn(op.record.shape.translations as Schema) as z.ZodObject;
    const record = op.record.extend({
      colour: z.string().optional(),
      variants: z.array(variants.extend({ weight: z.number().optional() })).optional(),
      translations: z.record(z.string(), translations.extend({ subtitle: z.string() })).optional(),
    });
    expect(unwrittenFields(record, op.writes)).toEqual([
      "variants.weight",
      "translations.subtitle",
      "colour",
    ]);
  });
});
