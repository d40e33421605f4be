import fc from "fast-check";
import { SUPPORTED_LOCALES } from "../../../src/lib/locales.ts";
import { type OpenApi, resolve, type Schema } from "./openapi.ts";
import { asciiWord, DATES, NASTY_STRINGS } from "./text.ts";

/** JSON values for a body schema of the OpenAPI document: valid-ish, with mutations at any node. */

export interface BodyPools {
  /** Ids that exist (mixed resources), as numbers for body references. */
  ids: number[];
  /** Existing ids of one resource, for body fields whose name matches (clean bodies use them). */
  named?: [RegExp, number[]][];
  /** Values written into unique fields (internal ids, slugs): a few repeat on purpose. */
  uniques: string[];
  urls: string[];
}

/** URLs for `format: uri` and `*_url` fields: the fixture server's, and ones the outbound guard refuses. */
export const urlPool = (fixture: string) => [
  `${fixture}/images/ok`,
  `${fixture}/images/html`,
  `${fixture}/images/svg`,
  `${fixture}/images/mislabeled`,
  `${fixture}/images/redirect-private`,
  `${fixture}/images/missing`,
  `${fixture}/webhooks/ok/fuzz`,
  "https://10.0.0.1/x.png",
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:a00:1]/x.png",
  "https://user:pass@example.com/x.png",
  "http://example.com/x.png",
  "ftp://example.com/x.png",
  "javascript:alert(1)",
  "data:image/png;base64,AAAA",
  "file:///etc/passwd",
  "https://localhost/x.png",
  "https://example.invalid/x.png",
  "not a url",
  "//example.com/x.png",
  "https://",
];

/** A JSON value of the wrong kind, or an adversarial one, for any position. */
const adversarialValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 1e308, 2 ** 53 + 2, [], {}),
  },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(256), "x".repeat(1001), "é".repeat(70_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }).map((d) => nest(d)) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom<unknown>(1, "a", null, {}), { minLength: 1, maxLength: 5 }),
  },
);

const nest = (depth: number): unknown => {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

export interface GenOptions {
  doc: OpenApi;
  pools: BodyPools;
  /** Weight of an adversarial replacement at any node (relative to 20 for the schema-guided value). */
  mutation: number;
  /** Values meant to pass validation: no boundary overshoot, no unknown keys, required keys present. */
  clean?: boolean;
}

const EMAILS = ["ana@example.com", "x@y.z", "not-an-email", "a@b", "@example.com", "ana@exa mple.com"];
const VALID_EMAILS = ["ana@example.com", "Bob.Smith+shop@example.co.uk"];
const VALID_DATES = ["2026-01-01T00:00:00Z", "2025-06-30T12:00:00Z", "2026-03-14T10:21:07+02:00"];

function stringArb(s: Schema, name: string, o: GenOptions): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 255, 100_000);
  const choices: fc.WeightedArbitrary<string>[] = [];
  if (s.format === "uri") return fc.constantFrom(...(o.clean ? o.pools.urls.slice(0, 1) : o.pools.urls));
  if (s.format === "email") return fc.constantFrom(...(o.clean ? VALID_EMAILS : EMAILS));
  if (s.format === "date-time" || s.format === "date")
    return fc.constantFrom(...(o.clean ? VALID_DATES : DATES));
  if (/discount$/.test(name) && o.clean) return fc.constantFrom("0", "10", "-12.5", "100", "0.99", "5.5");
  if (typeof s.pattern === "string" && o.clean)
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= max && v.length >= min);
  if (/url$/.test(name)) return fc.constantFrom(...(o.clean ? o.pools.urls.slice(0, 1) : o.pools.urls));
  if (name === "currency" || name === "currency_code")
    return o.clean ? fc.constant("EUR") : fc.constantFrom("EUR", "GBP", "RUB", "eur", "XXX", "EURO");
  else if (typeof s.pattern === "string") {
    choices.push({
      weight: 10,
      arbitrary: fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= max),
    });
    if (typeof s.example === "string") choices.push({ weight: 3, arbitrary: fc.constant(s.example) });
  }
  if (/internal_id|slug|sku|^ean$|^name$/.test(name))
    choices.push({ weight: 6, arbitrary: fc.constantFrom(...o.pools.uniques) });
  const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 -]{0,20}[a-z0-9]$/);
  choices.push(
    {
      weight: 6,
      arbitrary: o.clean ? word : fc.string({ minLength: min, maxLength: Math.max(Math.min(max, 24), min) }),
    },
    {
      weight: 1,
      arbitrary: fc.string({ unit: "grapheme", minLength: Math.max(min, 1), maxLength: Math.min(max, 12) }),
    },
    { weight: 1, arbitrary: fc.constant("x".repeat(max)) },
  );
  if (!o.clean) choices.push({ weight: 1, arbitrary: fc.constant("x".repeat(max + 1)) });
  return fc.oneof(...choices).filter((v) => !o.clean || (v.trim().length >= min && v.length <= max));
}

function intArb(s: Schema, name: string, o: GenOptions): fc.Arbitrary<number> {
  const min = typeof s.minimum === "number" ? s.minimum : -1_000;
  const max = typeof s.maximum === "number" ? s.maximum : 1_000_000;
  const choices: fc.WeightedArbitrary<number>[] = [
    { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) },
    {
      weight: 1,
      arbitrary: o.clean ? fc.constantFrom(min, max) : fc.constantFrom(min, max, min - 1, max + 1),
    },
  ];
  const idLike = /(^|_)id$|^ids$|categories|brands|ids$/.test(name) || min === 1;
  const named = o.pools.named?.find(([re, ids]) => re.test(name) && ids.length > 0)?.[1];
  if (idLike && o.clean) return fc.constantFrom(...(named ?? o.pools.ids));
  if (named) choices.push({ weight: 6, arbitrary: fc.constantFrom(...named) });
  if (idLike) choices.push({ weight: 6, arbitrary: fc.constantFrom(...o.pools.ids) });
  return fc.oneof(...choices);
}

/** A value for `schema` (resolved through `$ref`, `allOf`, nullable type lists), sometimes mutated. */
export function bodyValue(
  schema: Schema | undefined,
  o: GenOptions,
  name = "",
  depth = 0,
): fc.Arbitrary<unknown> {
  const guided = guidedValue(resolve(o.doc, schema), o, name, depth);
  if (o.mutation <= 0) return guided;
  return fc.oneof({ weight: 20, arbitrary: guided }, { weight: o.mutation, arbitrary: adversarialValue });
}

function guidedValue(s: Schema, o: GenOptions, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const merged: Schema = { type: "object", properties: {}, required: [] };
    for (const part of s.allOf.map((p: Schema) => resolve(o.doc, p))) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
      if (part.additionalProperties === false) merged.additionalProperties = false;
    }
    return guidedValue(merged, o, name, depth);
  }
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((a: Schema) => bodyValue(a, o, name, depth + 1)));
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum);
  const types: string[] = Array.isArray(s.type)
    ? s.type
    : typeof s.type === "string"
      ? [s.type]
      : s.properties || s.additionalProperties
        ? ["object"]
        : ["string", "integer", "object"];
  return fc.oneof(...types.map((t) => typed(t, s, o, name, depth)));
}

function typed(type: string, s: Schema, o: GenOptions, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return intArb(s, name, o);
    case "number":
      return fc.oneof(intArb(s, name, o), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "string":
      return stringArb(s, name, o);
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      const items = bodyValue(s.items, o, name, depth + 1);
      return o.clean
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    default:
      return objectArb(s, o, depth);
  }
}

function objectArb(s: Schema, o: GenOptions, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries<Schema>(s.properties ?? {});
  const required = new Set<string>(s.required ?? []);
  const extra =
    s.additionalProperties && typeof s.additionalProperties === "object" ? s.additionalProperties : null;
  const keyed =
    extra && Object.keys(extra).length > 0
      ? fc.dictionary(
          o.clean
            ? fc.constantFrom(...SUPPORTED_LOCALES, "market_es", "google")
            : fc.oneof(
                {
                  weight: 8,
                  arbitrary: fc.constantFrom(...SUPPORTED_LOCALES, "market_es", "market_en", "google"),
                },
                { weight: 1, arbitrary: fc.constantFrom("xx-XX", "__proto__", "constructor", "", "es_ES") },
              ),
          bodyValue(extra, o, "", depth + 1),
          { maxKeys: 3 },
        )
      : fc.constant({});
  const fields = fc.record(
    Object.fromEntries(
      props.map(([name, prop]) => [
        name,
        required.has(name) && o.clean
          ? bodyValue(prop, o, name, depth + 1)
          : required.has(name)
            ? fc.oneof(
                { weight: 19, arbitrary: bodyValue(prop, o, name, depth + 1) },
                { weight: 1, arbitrary: fc.constant(undefined) },
              )
            : fc.option(bodyValue(prop, o, name, depth + 1), { nil: undefined, freq: 2 }),
      ]),
    ),
  );
  const unknown = rarely(
    fc.tuple(fc.oneof(asciiWord, fc.constantFrom("__proto__", "constructor", "")), adversarialValue),
    12,
  );
  return fc.tuple(fields, keyed, o.clean ? fc.constant(undefined) : unknown).map(([f, k, u]) => {
    const out: Record<string, unknown> = { ...k };
    for (const [key, value] of Object.entries(f)) if (value !== undefined) out[key] = value;
    if (u)
      Object.defineProperty(out, u[0], { value: u[1], enumerable: true, writable: true, configurable: true });
    return out;
  });
}

/** Rarely: an arbitrary with probability about 1 / `every`, else undefined. */
const rarely = <T>(arb: fc.Arbitrary<T>, every: number) =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
