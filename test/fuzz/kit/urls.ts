import fc from "fast-check";
import type { RouteMeta } from "../../../src/http/route-table.ts";
import { SUPPORTED_LOCALES } from "../../../src/lib/locales.ts";
import type { QueryParam } from "./openapi.ts";
import { asciiWord, BOOLISH, DATES, LOCALE_TOKENS, NASTY_STRINGS, NUMBERISH } from "./text.ts";

/** Request URLs: query strings (known and unknown parameters, malformed escapes) and path segments. */

/** One value text: plausible tokens, lists of them, numbers, dates, nasty strings, long strings. */
function valueText(tokens: string[], ids: string[]): fc.Arbitrary<string> {
  const token = fc.constantFrom(...(tokens.length > 0 ? tokens : ["x"]), ...LOCALE_TOKENS, ...ids);
  const any = fc.oneof(
    { weight: 6, arbitrary: token },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERISH, ...ids) },
    { weight: 2, arbitrary: fc.constantFrom(...DATES) },
    { weight: 1, arbitrary: fc.constantFrom(...BOOLISH) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );
  return fc.oneof(
    { weight: 10, arbitrary: any },
    { weight: 4, arbitrary: fc.array(any, { minLength: 2, maxLength: 6 }).map((xs) => xs.join(",")) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 190, max: 600 }),
          fc.constantFrom(...NUMBERISH.slice(0, 4), ...tokens.slice(0, 3)),
        )
        .map(([n, t]) => Array.from({ length: n }, (_, i) => (t === "1" ? String(i + 1) : t)).join(",")),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("a", "1", "é", "'", ","), fc.constantFrom(256, 1_001, 8_000, 70_000))
        .map(([c, n]) => c.repeat(n)),
    },
  );
}

/** Encodes a name or value: mostly properly, sometimes raw or with malformed escapes. */
function encoded(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.nat(19)).map(([t, mode]) => {
    if (mode < 14) return encodeURIComponent(toWellFormed(t));
    if (mode < 17) return t.replace(/[#&]/g, encodeURIComponent);
    if (mode === 17) return `${encodeURIComponent(toWellFormed(t))}%`;
    if (mode === 18) return `%zz${encodeURIComponent(toWellFormed(t))}`;
    return `${encodeURIComponent(toWellFormed(t))}%E0%A4%A`;
  });
}

const toWellFormed = (s: string) => s.replace(/[\uD800-\uDFFF]/g, "\uFFFD");

/** A query string (without `?`): known and unknown names, repeats, empty and missing values. */
export function queryString(params: QueryParam[], ids: string[]): fc.Arbitrary<string> {
  const known: QueryParam[] =
    params.length > 0 ? params : [{ name: "page", own: [], tokens: [], required: false }];
  const knownPart = (p: QueryParam) =>
    fc.tuple(
      fc.constant(encodeURIComponent(p.name)),
      fc.oneof(
        { weight: 3, arbitrary: plausible(p, ids).map(encodeURIComponent) },
        { weight: 2, arbitrary: encoded(valueText(p.tokens, ids)) },
      ),
    );
  const part = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...known).chain(knownPart) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        encoded(fc.oneof(asciiWord, fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 8 }))),
        encoded(valueText([], ids)),
      ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...known.map((p) => p.name)), fc.constant("")) },
  );
  const required = known.filter((p) => p.required);
  return fc
    .tuple(
      fc.tuple(...required.map((p) => fc.option(knownPart(p), { freq: 10 }))),
      fc.array(part, { maxLength: 5 }),
      fc.nat(15),
      fc.constantFrom(...known.map((p) => p.name)),
    )
    .map(([must, parts, shape, name]) => {
      const all = [...must.filter((x): x is [string, string] => x !== null), ...parts];
      const pieces = all.map(([n, v]) => `${n}=${v}`);
      if (shape === 0) pieces.push(name); // a name without "="
      if (shape === 1) pieces.push(""); // "&&"
      if (shape === 2) pieces.unshift("=orphan");
      if (shape === 3 && all[0]) pieces.push(`${all[0][0]}=${all[0][1]}`); // a repeat
      return pieces.join("&");
    });
}

/** A value a client would plausibly send for this parameter, judged by its name and schema. */
function plausible(p: QueryParam, ids: string[]): fc.Arbitrary<string> {
  const n = p.name;
  const some = (xs: string[]) =>
    fc.uniqueArray(fc.constantFrom(...xs), { minLength: 1, maxLength: 3 }).map((v) => v.join(","));
  if (p.own.length > 0 && n !== "locales") return some(p.own);
  if (n === "locales") return fc.oneof(fc.constant("ALL"), some([...SUPPORTED_LOCALES]));
  if (n === "fields" || n === "includes") return some(p.tokens.length > 0 ? p.tokens : ["id"]);
  if (n === "page") return fc.constantFrom("1", "2", "3", "1000");
  if (n === "per_page") return fc.constantFrom("1", "2", "10", "50", "100", "500");
  if (/_from$|_to$/.test(n)) return fc.constantFrom(...DATES.slice(0, 8));
  if (/^is_/.test(n)) return fc.constantFrom("true", "false");
  if (/ids$|_id$|_min$|^rating$/.test(n) && !/internal/.test(n)) return some(ids);
  if (/email/.test(n)) return fc.constantFrom("ana@example.com", "ANA@EXAMPLE.COM");
  return fc.oneof(some(p.tokens.length > 0 ? p.tokens : ["x"]), fc.constantFrom("SKU-1", "BR-1", "x"));
}

/** Path segment for an id parameter: existing ids mostly, or anything a client could send. */
function pathSegment(existing: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(existing.length > 0 ? existing : ["1"])) },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERISH).map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...NASTY_STRINGS.filter((s) => s !== "" && s !== "/"))
        .map((s) => encodeURIComponent(toWellFormed(s))),
    },
    { weight: 1, arbitrary: fc.uuid().map((u) => u) },
    { weight: 1, arbitrary: fc.constantFrom("%2F", "%", "..", ".", "%2e%2e", "1%00", "1;", "1,2", "%zz") },
    {
      weight: 1,
      arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(toWellFormed(s))),
    },
    { weight: 1, arbitrary: fc.constantFrom("9".repeat(300), "a".repeat(5000)) },
  );
}

export function fillPath(route: RouteMeta, segments: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? "1");
}

const pathParamNames = (route: RouteMeta) =>
  [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** A segment for each path parameter of the route, drawn from `existing` ids mostly (`pathSegment`). */
export const pathSegments = (route: RouteMeta, existing: string[]) =>
  fc.record(
    Object.fromEntries(pathParamNames(route).map((name) => [name, pathSegment(existing)])),
  ) as fc.Arbitrary<Record<string, string>>;
