import type { Scenario } from "../scenarios.ts";
import {
  alternatingLoad,
  type LoadResult,
  load,
  meanOutsideD1,
  parseServerTiming,
  percentile,
  probe,
} from "./load.ts";
import { log } from "./log.ts";

/**
 * Each read scenario served by the edge cache at c=1, three ways: a hit (the same URL again and
 * again), a miss (the first read after a write bumped a domain its key carries) and a bypass
 * (`Cache-Control: no-cache`: computed now, nothing stored), beside the HTTP floor measured right
 * before. Worker CPU per request is the time outside D1 the responses report in `Server-Timing`
 * (the sum of their phases but `d1-wait`), as the cpu stage splits it.
 */

export interface CacheModeFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Mean time outside D1 per request (Server-Timing phases); null when none reported. */
  cpuMs: number | null;
  /** Median D1 rows read per request (`d1-rows`). */
  rowsRead: number | null;
  /** Responses per Cache-Status value. */
  cacheStatus: Record<string, number>;
}

export interface CacheModes {
  key: string;
  title: string;
  /** The answer's size in bytes. */
  bytes?: number;
  /** False when the scenario's route is not cached (every answer says `fwd=bypass`). */
  cached: boolean;
  httpFloor: CacheModeFigures;
  hit: CacheModeFigures;
  miss: CacheModeFigures | null;
  bypass: CacheModeFigures;
}

/**
 * What a storefront's clients accept, browsers and `fetch` alike: the load clients send no
 * `Accept-Encoding` of their own, and a hit is then sent compressed (src/edge/memory-cache.ts) as
 * Cloudflare's edge sends it deployed. The misses' `fetch` sends `gzip, deflate` itself.
 */
const CLIENT_ENCODINGS = { "accept-encoding": "gzip, deflate, br" };

/** The domains the benchmark knows a write for (src/db/cache-generations.ts). */
type BumpDomain = "categories" | "category_tree" | "products" | "price_lists" | "reviews";

/** What bumps the generation a scenario's key carries: one write, its commit awaited. */
export type Bump = (domain: BumpDomain, path: string) => Promise<void>;

const fromLoad = (r: LoadResult): CacheModeFigures => ({
  requests: r.requests,
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  cpuMs: r.outsideD1Ms ?? null,
  rowsRead: null,
  cacheStatus: r.cacheStatus ?? {},
});

/**
 * A domain the scenario's key carries (src/edge/cache-key.ts): reviews and price lists their own;
 * categories, and products answers with `includes=categories`, `categories`; a products list
 * filtered by `category_ids` `category_tree` (a category moved); any other products answer
 * `products` (no route writes products: a one-record bulk job does).
 */
function domainOf(scenario: Scenario): BumpDomain {
  const url = new URL(scenario.path, "http://bench");
  const path = url.pathname;
  if (path.startsWith("/api/v1/reviews")) return "reviews";
  if (path.startsWith("/api/v1/price-lists")) return "price_lists";
  if (path.startsWith("/api/v1/categories")) return "categories";
  const includes = url.searchParams.getAll("includes").flatMap((v) => v.split(","));
  if (includes.includes("categories")) return "categories";
  if (url.searchParams.has("category_ids")) return "category_tree";
  return "products";
}

export async function measureCacheModes(o: {
  origin: string;
  secret: string;
  scenarios: Scenario[];
  seconds: number;
  /** Sequential misses per scenario (each after its own bump). */
  misses: number;
  bump: Bump;
  errors: string[];
  /** Prefix of the log lines and error messages (the simulated round trip). */
  label?: string;
}): Promise<CacheModes[]> {
  const label = o.label ?? "";
  const floor = o.scenarios.find((s) => s.kind === "http-floor");
  const out: CacheModes[] = [];
  const run = async (path: string, headers?: Record<string, string>) =>
    load({
      origin: o.origin,
      path,
      secret: o.secret,
      connections: 1,
      seconds: o.seconds,
      headers: { ...CLIENT_ENCODINGS, ...headers },
    });
  for (const scenario of o.scenarios.filter((s) => s.kind === "read")) {
    const warm = await probe(o.origin, scenario.path, o.secret, 3);
    if (warm.status !== scenario.expectStatus)
      o.errors.push(`cache ${label}${scenario.key}: expected ${scenario.expectStatus}, got ${warm.status}`);
    const cached = warm.cacheStatus === "storefront; hit";
    // The floor and the hit in turn, request by request: both see the same moments of the machine.
    const [floorLoad, hitLoad] = await alternatingLoad(
      { origin: o.origin, secret: o.secret, seconds: 2 * o.seconds, headers: CLIENT_ENCODINGS },
      [floor?.path ?? scenario.path, scenario.path],
    );
    const httpFloor = fromLoad(floorLoad as LoadResult);
    const hit = fromLoad(hitLoad as LoadResult);
    hit.rowsRead = warm.rowsRead ?? 0;
    const bypassLoad = await run(scenario.path, { "cache-control": "no-cache" });
    const bypass = fromLoad(bypassLoad);
    bypass.rowsRead = (
      await probe(o.origin, scenario.path, o.secret, 1, { "cache-control": "no-cache" })
    ).rowsRead;
    const miss = cached ? await misses(o, scenario, domainOf(scenario)) : null;
    if (cached && (hit.cacheStatus["storefront; hit"] ?? 0) < hit.requests)
      o.errors.push(
        `cache ${label}${scenario.key}: ${hit.requests - (hit.cacheStatus["storefront; hit"] ?? 0)} of ${hit.requests} repeated reads were not hits`,
      );
    if (miss && (miss.cacheStatus["storefront; fwd=miss"] ?? 0) < miss.requests)
      o.errors.push(
        `cache ${label}${scenario.key}: a read right after a bump was not a miss (${JSON.stringify(miss.cacheStatus)})`,
      );
    log(
      `cache ${label}${scenario.key}: hit p50 ${hit.p50Ms.toFixed(2)} ms (floor ${httpFloor.p50Ms.toFixed(2)}), cpu ${hit.cpuMs?.toFixed(2) ?? "?"} ms; miss p50 ${miss?.p50Ms.toFixed(2) ?? "–"} ms; bypass p50 ${bypass.p50Ms.toFixed(2)} ms`,
    );
    out.push({
      key: scenario.key,
      title: scenario.title,
      bytes: warm.bytes,
      cached,
      httpFloor,
      hit,
      miss,
      bypass,
    });
  }
  return out;
}

/** `n` reads, each right after a write that bumped the scenario's domain: every one computes its answer. */
async function misses(
  o: { origin: string; secret: string; misses: number; bump: Bump },
  scenario: Scenario,
  domain: BumpDomain,
): Promise<CacheModeFigures> {
  const latencies: number[] = [];
  const cpu: number[] = [];
  const rows: number[] = [];
  const cacheStatus: Record<string, number> = {};
  for (let i = 0; i < o.misses; i++) {
    await o.bump(domain, scenario.path);
    const started = performance.now();
    const res = await fetch(o.origin + scenario.path, { headers: { authorization: `Bearer ${o.secret}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    const status = res.headers.get("cache-status") ?? "none";
    cacheStatus[status] = (cacheStatus[status] ?? 0) + 1;
    const timing = parseServerTiming(res.headers.get("server-timing"));
    if (timing.outsideD1Ms !== null) cpu.push(timing.outsideD1Ms);
    if (timing.rowsRead !== null) rows.push(timing.rowsRead);
  }
  latencies.sort((a, b) => a - b);
  rows.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuMs: meanOutsideD1(cpu),
    rowsRead: rows.length > 0 ? percentile(rows, 50) : null,
    cacheStatus,
  };
}
