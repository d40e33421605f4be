import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import "../src/app.ts";
import { type RouteMeta, routeTable } from "../src/http/route-table.ts";
import { SUPPORTED_LOCALES } from "../src/lib/locales.ts";
import { api } from "./support/api.ts";
import { KEYS } from "./support/keys.ts";

/**
 * Shared pieces of the property-based fuzz suites (test/fuzz-*.test.ts): the routes under test
 * (from the route table, so a new route is fuzzed without touching the tests), the request
 * generators (adversarial query strings, path ids and bodies guided by the OpenAPI document), the
 * response properties and a database fingerprint for "a refused write changes nothing".
 */

/** Cases per route: `FUZZ_RUNS` (a binding set from the environment by vitest.config.ts), else 1,000. */
export function fuzzRuns(fallback = 1000): number {
  const raw = (env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS;
  const n = raw ? Number.parseInt(raw, 10) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

export const routes = (): RouteMeta[] => routeTable.all();

// ---------------------------------------------------------------------------------------------
// Requests and the properties every answer must have

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent (may hold malformed percent escapes). */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

const worker = () => (exports as unknown as { default: Fetcher }).default;

/** D1 round trips the app reports in `Server-Timing` (`d1;desc="round trips";dur=N`), or Infinity. */
export function d1RoundTrips(headers: Headers): number {
  const match = /d1;[^,]*dur=(\d+)/.exec(headers.get("server-timing") ?? "");
  return match ? Number(match[1]) : Number.POSITIVE_INFINITY;
}

export async function send(req: FuzzRequest): Promise<FuzzResponse> {
  const response = await worker().fetch(
    new Request(`https://api.test${req.url}`, { method: req.method, headers: req.headers, body: req.body }),
  );
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const LOCATIONS = new Set(["query", "path", "body", "header"]);

/** Short description of a request for failure messages (bodies cut). */
export const describeRequest = (req: FuzzRequest) =>
  `${req.method} ${req.url.slice(0, 300)}${req.url.length > 300 ? "…" : ""} [${req.headers["content-type"] ?? "no content-type"}] ${
    req.body === undefined ? "" : `${req.body.length} bytes: ${req.body.slice(0, 300)}`
  }`;

/**
 * Never a 5xx; every 4xx is problem JSON with `code` and the request id (and for a 400, the list
 * of problems); every answer carries nosniff and no framework banner; 2xx answers are JSON.
 */
export function checkAnswer(req: FuzzRequest, res: FuzzResponse): void {
  const fail = (why: string) => {
    throw new Error(
      `${why}\n  request: ${describeRequest(req)}\n  answer ${res.status}: ${res.text.slice(0, 500)}`,
    );
  };
  if (res.status >= 500) fail(`5xx answer`);
  if (res.headers.get("x-content-type-options") !== "nosniff") fail("no X-Content-Type-Options: nosniff");
  if (res.headers.has("x-powered-by")) fail("X-Powered-By header");
  const requestId = res.headers.get("x-request-id");
  if (!requestId) fail("no X-Request-Id");
  if (res.status >= 400) {
    if (res.headers.get("content-type") !== "application/problem+json") fail("4xx without problem JSON");
    const p = res.json;
    if (!p || typeof p !== "object") fail("4xx body is not a JSON object");
    if (typeof p.code !== "string" || p.code === "") fail("problem without code");
    if (p.status !== res.status) fail("problem status differs from the HTTP status");
    if (p.request_id !== requestId) fail("problem request_id differs from X-Request-Id");
    if (typeof p.type !== "string" || typeof p.title !== "string" || typeof p.detail !== "string")
      fail("problem without type/title/detail");
    if (res.status === 400 && (!Array.isArray(p.errors) || p.errors.length === 0))
      fail("400 without a non-empty errors list");
    for (const e of p.errors ?? []) {
      if (!LOCATIONS.has(e?.location) || typeof e.path !== "string" || typeof e.message !== "string")
        fail(`malformed errors entry ${JSON.stringify(e)}`);
    }
    if (res.status === 405 && !res.headers.get("allow")) fail("405 without Allow");
    if (res.status === 401 && !res.headers.get("www-authenticate")) fail("401 without WWW-Authenticate");
    if ((res.status === 429 || p.code === "rate_limited") && !res.headers.get("retry-after"))
      fail("429 without Retry-After");
    return;
  }
  if (res.status === 204 || res.status === 304) return;
  if (!(res.headers.get("content-type") ?? "").includes("json") && !req.url.startsWith("/docs"))
    fail("2xx answer that is not JSON");
  if (res.json === undefined && !req.url.startsWith("/docs")) fail("2xx answer whose body does not parse");
}

// ---------------------------------------------------------------------------------------------
// Database fingerprint

let fingerprintSql: { table: string; sql: string }[] | undefined;

async function fingerprintStatements() {
  if (!fingerprintSql) {
    const { results: tables } = await env.DB.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name`,
    ).all<{ name: string }>();
    const infos = await env.DB.batch<{ name: string }>(
      tables.map((t) => env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(t.name)),
    );
    fingerprintSql = tables.map((t, i) => {
      const columns = (infos[i]?.results ?? [])
        .map((c) => c.name)
        .filter((c) => !(t.name === "api_keys" && c === "last_used_at"))
        .map((c) => {
          const q = `"${c.replace(/"/g, '""')}"`;
          return `CASE WHEN length(${q}) > 200 THEN length(${q}) || ':' || substr(${q}, 1, 40) || substr(${q}, -40) ELSE ${q} END`;
        });
      return {
        table: t.name,
        sql: `SELECT count(*) AS n, group_concat(r, char(30)) AS rows FROM (SELECT json_array(${columns.join(", ")}) AS r FROM "${t.name}")`,
      };
    });
  }
  return fingerprintSql;
}

/**
 * The content of every application table (or of `only`) as compact text, in one round trip: long
 * values are reduced to their length and both ends so the text stays small while still catching
 * any change. `api_keys.last_used_at` is left out (written off the response path).
 */
export async function dbFingerprint(only?: ReadonlySet<string>): Promise<Map<string, string>> {
  const statements = (await fingerprintStatements()).filter((f) => !only || only.has(f.table));
  if (statements.length === 0) return new Map();
  const results = await env.DB.batch<{ n: number; rows: string | null }>(
    statements.map((f) => env.DB.prepare(f.sql)),
  );
  return new Map(
    statements.map((f, i) => {
      const row = results[i]?.results[0];
      return [f.table, `${row?.n}|${row?.rows ?? ""}`];
    }),
  );
}

/**
 * Row counts of every application table and the content of `only`, in one round trip.
 */
async function countsAndContent(only: ReadonlySet<string>) {
  const statements = await fingerprintStatements();
  const counts = statements.map((f, i) => `(SELECT count(*) FROM "${f.table}") AS c${i}`).join(", ");
  const content = statements.filter((f) => only.has(f.table));
  const [first, ...rest] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(`SELECT ${counts}`),
    ...content.map((f) => env.DB.prepare(f.sql)),
  ]);
  const row = first?.results[0] ?? {};
  return {
    counts: new Map(statements.map((f, i) => [f.table, String(row[`c${i}`])])),
    content: new Map(
      content.map((f, i) => {
        const r = rest[i]?.results[0] as { n: number; rows: string | null } | undefined;
        return [f.table, `${r?.n}|${r?.rows ?? ""}`];
      }),
    ),
  };
}

const countOf = (fingerprint: string | undefined) => fingerprint?.slice(0, fingerprint.indexOf("|"));

/**
 * Watches the database across the requests of one route. After an accepted write it takes the
 * full fingerprint (every table's content) and learns which tables the route writes; after a
 * refused one it compares the row counts of every table and the content of the tables the route
 * writes, and every `fullEvery`-th time the full fingerprint again. (Reading every table after
 * every request would make the fuzzing several times slower, for tables no write route touches.)
 */
export class DbWatch {
  private reference = new Map<string, string>();
  private readonly written = new Set<string>(["idempotency_keys"]);
  private refused = 0;
  /** Full fingerprints taken, and refusals that needed no look (for the report). */
  taken = 0;
  skipped = 0;

  constructor(private readonly fullEvery = 40) {}

  async start() {
    this.reference = await dbFingerprint();
  }

  /** After an accepted request: the new state becomes the reference; returns the tables it changed. */
  async accept(): Promise<string[]> {
    this.taken++;
    const now = await dbFingerprint();
    const diff = changedTables(this.reference, now);
    for (const t of diff) this.written.add(t);
    this.reference = now;
    return diff;
  }

  /**
   * After a refused request: the tables whose content differs from the reference (should be none).
   * A refusal whose `Server-Timing` reports no D1 round trip ran no statement at all (every write
   * goes through `runWrite`/`batch`/`countTrip`, which count one), so it needs no look, except for
   * the periodic full fingerprint, which would still catch a write that slipped past the counting.
   */
  async refuse(roundTrips = Number.POSITIVE_INFINITY): Promise<string[]> {
    const full = ++this.refused % this.fullEvery === 0;
    if (roundTrips === 0 && !full) {
      this.skipped++;
      return [];
    }
    if (full) {
      this.taken++;
      return changedTables(this.reference, await dbFingerprint());
    }
    const { counts, content } = await countsAndContent(this.written);
    const diff = new Set<string>();
    for (const [table, n] of counts) if (countOf(this.reference.get(table)) !== n) diff.add(table);
    for (const [table, text] of content) if (this.reference.get(table) !== text) diff.add(table);
    return [...diff];
  }
}

/** Names of the tables whose content differs. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n));
}

// ---------------------------------------------------------------------------------------------
// Outbound requests: loopback only

/**
 * Client-supplied URLs (images, webhooks) must not leave the machine during fuzzing: every
 * outbound fetch to anything but 127.0.0.1 fails like an unreachable host.
 */
export function loopbackOnlyFetch(): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "127.0.0.1") return Promise.reject(new TypeError(`fuzz: no network to ${url.host}`));
    return original(input, init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI document: parameter names, value tokens and body schemas of each operation

type Schema = Record<string, any>;

export interface OpenApi {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

export async function openApi(): Promise<OpenApi> {
  const res = await api("/api/v1/openapi.json", { key: null });
  return res.json as OpenApi;
}

export const operationOf = (doc: OpenApi, route: RouteMeta) =>
  doc.paths[route.path]?.[route.method.toLowerCase()] as Record<string, any> | undefined;

export function resolve(doc: OpenApi, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    s = doc.components.schemas[s.$ref.split("/").pop() as string] ?? {};
  }
  return s;
}

/** Every string a schema mentions (enum values, property names, examples), to build plausible values. */
function harvest(doc: OpenApi, schema: Schema | undefined, out: Set<string>, depth = 0, seen = new Set()) {
  if (!schema || depth > 6) return;
  const s = resolve(doc, schema);
  if (seen.has(s)) return;
  seen.add(s);
  for (const v of s.enum ?? []) if (typeof v === "string") out.add(v);
  if (typeof s.example === "string") out.add(s.example);
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    out.add(name);
    harvest(doc, prop, out, depth + 1, seen);
  }
  for (const key of ["items", "additionalProperties"]) {
    if (s[key] && typeof s[key] === "object") harvest(doc, s[key], out, depth + 1, seen);
  }
  for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    harvest(doc, part, out, depth + 1, seen);
  }
}

export interface QueryParam {
  name: string;
  /** Tokens of the parameter's own schema (enum values, examples). */
  own: string[];
  /** Names the answer mentions (field and include names, enum values). */
  tokens: string[];
  required: boolean;
}

/** Query parameters of an operation with plausible value tokens (enums, examples, field names). */
export function queryParams(doc: OpenApi, route: RouteMeta): QueryParam[] {
  const op = operationOf(doc, route);
  if (!op) return [];
  const responseTokens = new Set<string>();
  for (const response of Object.values<any>(op.responses ?? {})) {
    harvest(doc, response?.content?.["application/json"]?.schema, responseTokens);
  }
  return (op.parameters ?? [])
    .filter((p: any) => p.in === "query")
    .map((p: any) => {
      const own = new Set<string>();
      harvest(doc, p.schema, own);
      if (typeof p.example === "string") own.add(p.example);
      return {
        name: p.name as string,
        own: [...own],
        tokens: [...own, ...responseTokens],
        required: p.required === true,
      };
    });
}

export const pathParamNames = (route: RouteMeta) =>
  [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

// ---------------------------------------------------------------------------------------------
// Adversarial text

const SQL_META = [
  "' OR 1=1 --",
  "1' OR '1'='1",
  '"; DROP TABLE brands; --',
  "1; DELETE FROM api_keys",
  "1 UNION SELECT key_hash FROM api_keys",
  "%' --",
  "*",
  "%",
  "_",
  "[a-z]*",
  "\\",
  "')) OR json_each('",
];

export const NASTY_STRINGS = [
  "",
  " ",
  "  padded  ",
  "\t",
  "\r\n",
  "\u0000",
  "a\u0000b",
  "%00",
  "%",
  "%zz",
  "%E0%A4%A",
  "\uD800",
  "\uDFFF\uD800",
  "ü",
  "Ünïcödé",
  "日本語",
  "🦄💥",
  "\u202Eevil",
  "\uFEFF",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "true",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "$" + "{7*7}",
  "{{7*7}}",
  "a,b",
  ",",
  ",,",
  "=",
  "&",
  "#",
  "?",
  "/",
  "+",
  ...SQL_META,
];

const NUMBERISH = [
  "0",
  "1",
  "2",
  "3",
  "-1",
  "01",
  "1.0",
  "1.5",
  "1e3",
  "0x10",
  " 1",
  "1 ",
  "+1",
  "99",
  "100",
  "101",
  "500",
  "501",
  "1000000",
  "9007199254740991",
  "9007199254740992",
  "9999999999999999",
  "99999999999999999999999",
  "-9223372036854775809",
];

const DATES = [
  "2026-01-01",
  "2026-12-31",
  "2026-01-01T00:00:00Z",
  "2026-01-01T00:00:00.123Z",
  "2026-01-01T00:00:00.123456789Z",
  "2026-06-30T12:00:00+02:00",
  "2026-06-30T12:00:00-11:30",
  "2026-06-30T12:00Z",
  "2026-01-01T00:00:00",
  "2026-02-30",
  "2026-13-01",
  "2026-00-10",
  "2026-1-1",
  "20260101",
  "2026-01-01T24:00:00Z",
  "2026-01-01T23:60:00Z",
  "2026-01-01T00:00:00+99:99",
  "2026-01-01 00:00:00Z",
  "0000-01-01",
  "9999-12-31T23:59:59Z",
  "+275760-09-13T00:00:00Z",
  "1970-01-01T00:00:00Z",
];

const BOOLISH = ["true", "false", "TRUE", "False", "1", "0", "yes", "on"];

const LOCALE_TOKENS = [...SUPPORTED_LOCALES, "ALL", "all", "es", "es_ES", "xx-XX", "en-US", "EN-gb"];

const asciiWord = fc.stringMatching(/^[a-z_]{1,12}$/);

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
export function pathSegment(existing: string[]): fc.Arbitrary<string> {
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

// ---------------------------------------------------------------------------------------------
// Bodies from the OpenAPI request schema, valid-ish with mutations

export interface BodyPools {
  /** Ids that exist (mixed resources), as numbers for body references. */
  ids: number[];
  /** Existing ids of one resource, for body fields whose name matches (clean bodies use them). */
  named?: [RegExp, number[]][];
  /** Values written into unique fields (internal ids, slugs): a few repeat on purpose. */
  uniques: string[];
  urls: string[];
}

const URL_POOL = (fixture: string) => [
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

export const urlPool = (fixture: string) => URL_POOL(fixture);

/** A JSON value of the wrong kind, or an adversarial one, for any position. */
export const adversarialValue: fc.Arbitrary<unknown> = fc.oneof(
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

interface GenOptions {
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

// ---------------------------------------------------------------------------------------------
// Headers: mostly the all-scopes key, sometimes no key, a wrong one, or an Idempotency-Key

export function authHeaders(method: string): fc.Arbitrary<Record<string, string>> {
  const auth = fc.oneof(
    { weight: 30, arbitrary: fc.constant<string | null>(`Bearer ${KEYS.all}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | null>(
        null,
        `Bearer ${KEYS.read}`,
        `Bearer ${KEYS.revoked}`,
        "Bearer sfk_nope",
        "Basic abc",
        "Bearer",
        `Bearer ${KEYS.all} extra`,
        `bearer ${KEYS.all}`,
      ),
    },
  );
  const idem =
    method === "POST"
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          {
            weight: 1,
            arbitrary: fc.oneof(fc.constantFrom("k1", "k2", "", " ", "x".repeat(256)), fc.uuid()),
          },
        )
      : fc.constant(null);
  return fc.tuple(auth, idem).map(([a, k]) => {
    const h: Record<string, string> = {};
    if (a !== null) h.authorization = a;
    if (k !== null) h["idempotency-key"] = k;
    return h;
  });
}

// ---------------------------------------------------------------------------------------------
// Data: the deterministic demo seed, so reads render real rows and writes have targets

export async function loadDemoSeed(): Promise<void> {
  const { buildSeed } = await import("../src/seed/index.ts");
  const statements = await buildSeed({ scale: 1 });
  await env.DB.batch([
    env.DB.prepare("DELETE FROM store_translations"),
    env.DB.prepare("DELETE FROM store"),
    ...statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)),
  ]);
}

/** A few existing ids of `table` (as path segments), the largest one included. */
export async function existingIds(table: string, n = 3): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM (SELECT id FROM "${table}" ORDER BY id LIMIT ?) UNION SELECT max(id) FROM "${table}"`,
  )
    .bind(n)
    .all<{ id: number | string | null }>();
  return results.filter((r) => r.id !== null).map((r) => String(r.id));
}

/** Rarely: an arbitrary with probability about 1 / `every`, else undefined. */
export const rarely = <T>(arb: fc.Arbitrary<T>, every: number) =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
