import fc from "fast-check";
import type { Schema } from "./openapi.ts";
import { bodyValue, type GenOptions } from "./schema-values.ts";

/** Request bodies with their content type: schema-guided JSON, broken JSON, deep nesting, oversized. */

/** The JSON text of `value` with arrays nested `depth` deep under a new key of one of its objects. */
function deepInside(value: unknown, pick: number, depth: number): string {
  const objects: Record<string, unknown>[] = [];
  const walk = (v: unknown, level: number) => {
    if (level > 5 || v === null || typeof v !== "object") return;
    if (!Array.isArray(v)) objects.push(v as Record<string, unknown>);
    for (const child of Object.values(v)) walk(child, level + 1);
  };
  walk(value, 0);
  const target = objects.length > 0 ? objects[pick % objects.length] : undefined;
  if (!target) return `${"[".repeat(depth)}${"]".repeat(depth)}`;
  target.z = "__DEEP__";
  return JSON.stringify(value).replace('"__DEEP__"', `${"[".repeat(depth)}1${"]".repeat(depth)}`);
}

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/jsonx",
  "text/json",
  "",
  "*/*",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/merge-patch+json",
];

const RAW_BODIES = [
  "",
  "{",
  '{"name":',
  "[1,2",
  "nul",
  "undefined",
  "NaN",
  "{'a':1}",
  "\uFEFF{}",
  "{}garbage",
  '{"a":1}{"b":2}',
  "\u0000",
  '{"name":"x","name":"y"}',
  "1e999999",
  "[]",
  "[{}]",
  "null",
  "true",
  '"string"',
  "0",
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{}}}',
];

/**
 * A request body with its content type: schema-guided JSON (mutated), arbitrary JSON, broken
 * JSON, deep nesting, oversized payloads, and bodies with a content type that is not JSON.
 */
export function bodyArb(schema: Schema | undefined, o: GenOptions, bodyLimit: number, cleanWeight = 10) {
  const text = fc.oneof(
    {
      weight: cleanWeight,
      arbitrary: bodyValue(schema, { ...o, mutation: 0, clean: true }).map((v) => JSON.stringify(v)),
    },
    { weight: 10, arbitrary: bodyValue(schema, o).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
        .map(([d, arrays]) =>
          arrays ? `{"a":${"[".repeat(d)}${"]".repeat(d)}}` : `${'{"a":'.repeat(d)}1${"}".repeat(d)}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          bodyValue(schema, { ...o, mutation: 0, clean: true }),
          fc.nat(),
          fc.integer({ min: 50, max: 20_000 }),
        )
        .map(([v, pick, d]) => deepInside(v, pick, d)),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(bodyLimit - 64, bodyLimit + 1, bodyLimit * 2)
        .map((n) => `{"name":"${"x".repeat(Math.max(0, n - 12))}"}`),
    },
  );
  const contentType = fc.oneof(
    { weight: 25, arbitrary: fc.constant<string | null>("application/json") },
    { weight: 2, arbitrary: fc.constantFrom<string | null>(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant<string | null>(null) },
  );
  return fc.record({ text, contentType });
}
