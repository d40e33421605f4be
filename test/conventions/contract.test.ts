import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { AnyResource } from "../../src/conventions/resource.ts";
import { RESOURCES } from "../../src/resources/index.ts";

/** Every key a declaration can render: its fields (fields sharing an `into` key once), `translations`, its includes. */
function outputKeys(resource: AnyResource) {
  const keys = Object.entries(resource.fields).map(([name, field]) => field.into ?? name);
  if (resource.translations) keys.push("translations");
  keys.push(...Object.keys(resource.includes ?? {}));
  return [...new Set(keys)].sort();
}

const unwrap = (schema: unknown): unknown =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodNullable ? unwrap(schema.unwrap()) : schema;

/** The keys of one locale's object under the contract item's `translations` (none: []). */
function translationKeys(item: z.ZodObject) {
  const record = unwrap(item.shape.translations);
  if (!(record instanceof z.ZodRecord)) return [];
  const value = unwrap(record.valueType);
  return value instanceof z.ZodObject ? Object.keys(value.shape).sort() : [];
}

describe.each(RESOURCES.map(({ resource }) => [resource.name, resource] as const))(
  "the %s declaration against its contract item schema",
  (_, resource) => {
    it("renders exactly the schema's keys", () => {
      expect(outputKeys(resource)).toEqual(Object.keys(resource.item.shape).sort());
    });

    it("translates exactly the fields of the schema's translations", () => {
      expect(Object.keys(resource.translations?.fields ?? {}).sort()).toEqual(translationKeys(resource.item));
    });
  },
);
