import { type BulkPayload, runBulk } from "./bulk.ts";
import { parseServerTiming, percentile } from "./load.ts";

/**
 * A storefront's traffic: `clients` concurrent readers each picking the next URL by Zipf (s = 1.0)
 * over product pages, category pages and product list pages; beside them one catalog write a
 * second, a brand's name and a category's name PATCHed in turn (bumping `brands`, which no URL of
 * the workload reads, and `categories`, which every list page reads), and one bulk job (a
 * variants update, bumping `products`) half way through. Measured after the warm-up: hit ratio (Cache-Status), p50/p99, D1 rows read per
 * 1,000 reads (Server-Timing `d1-rows`); for each write, the time from its 2xx to the start of the
 * first read of the entity written without a bookmark that showed the new name (staleness), and whether a read carrying
 * the write's `x-d1-bookmark` showed it (it must).
 */

export interface StorefrontRun {
  /** `on`: served through the edge cache; `off`: `EDGE_CACHE=off`. */
  cache: "on" | "off";
  urls: number;
  clients: number;
  seconds: number;
  warmupSeconds: number;
  /** Reads after the warm-up, and of those the hits. */
  requests: number;
  hits: number;
  hitRatio: number;
  /**
   * Of the reads after the warm-up, those of a URL this run had never read (a cold cache's misses,
   * which only more traffic before them avoids), and the hit ratio of the others: what writes and
   * expiry leave of a warm cache.
   */
  firstReads?: number;
  repeatHitRatio?: number;
  /** How long reading every URL once took, when the run did (`prewarm`). */
  prewarmMs?: number;
  /** Reads per second after the warm-up: with one catalog write a second, about how many reads share a generation. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  rowsReadPer1000: number;
  writes: number;
  /** Largest time from a write's 2xx to the first read without a bookmark showing it (ms). */
  maxStalenessMs: number | null;
  p50StalenessMs: number | null;
  /** Reads without a bookmark, sent after a write's 2xx, that answered the old name. */
  stalePolls?: number;
  /** Reads with the write's bookmark that did not show it. */
  staleBookmarkReads: number;
  bulk: { records: number; status: string; wallMs: number } | null;
}

/** The URLs, ranked: the first is the most requested. */
/** A leaf category and the two parents it is moved between (a move bumps `category_tree`). */
export interface MovableCategory {
  id: number;
  parents: [number, number];
}

export function storefrontUrls(productIds: number[], categoryIds: number[], listPages: number): string[] {
  const urls = [
    ...productIds.map((id) => `/api/v1/products/${id}?includes=variants`),
    ...categoryIds.map((id) => `/api/v1/products?category_ids=${id}&per_page=20`),
    ...Array.from({ length: listPages }, (_, i) => `/api/v1/products?per_page=20&page=${i + 1}`),
  ];
  // A fixed shuffle, so popular URLs are of every kind and every run ranks them the same.
  const random = mulberry32(23);
  for (let i = urls.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [urls[i], urls[j]] = [urls[j] as string, urls[i] as string];
  }
  return urls;
}

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf with s = 1 over `n` ranks: rank k drawn with probability (1/k) / H(n). */
function zipf(n: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export async function runStorefront(o: {
  origin: string;
  secret: string;
  cache: "on" | "off";
  urls: string[];
  clients: number;
  seconds: number;
  warmupSeconds: number;
  /** The brand and the category whose names the writes change, and the category they move, in turn. */
  brandId: number;
  categoryId: number;
  movable: MovableCategory;
  /** Read every URL once before the warm-up (the cache on: a warm cache, as a busy storefront's is). */
  prewarm?: boolean;
  /** The bulk job run once, half way through the measured window. */
  bulk: BulkPayload;
  errors: string[];
}): Promise<StorefrontRun> {
  const auth = { authorization: `Bearer ${o.secret}` };
  const seen = new Set<string>();
  let prewarmMs: number | undefined;
  if (o.prewarm) {
    // A storefront's steady state: every URL read once (as its traffic has read it before), then the
    // timed warm-up and window.
    const t0 = performance.now();
    let next = 0;
    const sweep = async () => {
      for (let i = next++; i < o.urls.length; i = next++) {
        const path = o.urls[i] as string;
        seen.add(path);
        await (await fetch(o.origin + path, { headers: auth })).arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: o.clients }, sweep));
    prewarmMs = performance.now() - t0;
  }
  const started = performance.now();
  const measuredFrom = started + o.warmupSeconds * 1000;
  const end = measuredFrom + o.seconds * 1000;
  const latencies: number[] = [];
  let hits = 0;
  let rows = 0;
  let non2xx = 0;
  let firstReads = 0;
  const pick = zipf(o.urls.length, mulberry32(1));
  const client = async () => {
    while (performance.now() < end) {
      const path = o.urls[pick()] as string;
      const t0 = performance.now();
      const first = !seen.has(path);
      seen.add(path);
      const res = await fetch(o.origin + path, { headers: auth });
      await res.arrayBuffer();
      if (t0 < measuredFrom) continue;
      if (first) firstReads++;
      latencies.push(performance.now() - t0);
      if (res.status !== 200) non2xx++;
      if (res.headers.get("cache-status") === "storefront; hit") hits++;
      rows += parseServerTiming(res.headers.get("server-timing")).rowsRead ?? 0;
    }
  };
  const staleness: number[] = [];
  let staleBookmarkReads = 0;
  let stalePolls = 0;
  const writer = async () => {
    for (let n = 0; performance.now() < end; n++) {
      const next = started + (n + 1) * 1000;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      if (performance.now() >= end) break;
      const name = `Bench name ${o.cache} ${n} ${Date.now()}`;
      const translations = { "es-ES": { name } };
      const moved = o.movable;
      const [path, patch] = [
        [`/api/v1/brands/${o.brandId}`, { name }],
        [`/api/v1/categories/${o.categoryId}`, { translations }],
        // Moved and renamed: the name shows when the write does.
        [
          `/api/v1/categories/${moved.id}`,
          { parent_id: moved.parents[Math.floor(n / 3) % 2] as number, translations },
        ],
      ][n % 3] as [string, object];
      const shows = async (headers: Record<string, string>) => {
        const res = await fetch(`${o.origin}${path}`, { headers: { ...auth, ...headers } });
        return (await res.text()).includes(JSON.stringify(name));
      };
      const res = await fetch(`${o.origin}${path}`, {
        method: "PATCH",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(patch),
      });
      const committed = performance.now();
      await res.arrayBuffer();
      if (!res.ok) {
        o.errors.push(`cache storefront: PATCH ${path} answered ${res.status}`);
        continue;
      }
      const bookmark = res.headers.get("x-d1-bookmark");
      const readBack = async () => {
        if (bookmark && !(await shows({ "x-d1-bookmark": bookmark }))) staleBookmarkReads++;
      };
      // Polled until it shows, at most 10 s (five times the documented bound). Its staleness is the
      // time to the start of the first read that showed it: a read's own queueing under the load
      // is not the cache's.
      const poll = async () => {
        for (;;) {
          const sent = performance.now();
          if ((await shows({})) || sent - committed > 10_000) return sent - committed;
          stalePolls++;
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      const [ms] = await Promise.all([poll(), readBack()]);
      staleness.push(ms);
    }
  };
  const bulkJob = async () => {
    await new Promise((r) => setTimeout(r, o.warmupSeconds * 1000 + (o.seconds * 1000) / 2));
    const run = await runBulk({
      origin: o.origin,
      path: "/api/v1/variants/bulk",
      secret: o.secret,
      payload: o.bulk,
      timeoutMs: 120_000,
    });
    if (run.status !== "done") o.errors.push(`cache storefront: bulk job ended ${run.status}`);
    return { records: o.bulk.records, status: run.status, wallMs: run.wallMs };
  };
  const [bulk] = await Promise.all([
    bulkJob().catch((err: Error) => {
      o.errors.push(`cache storefront: bulk job: ${err.message}`);
      return null;
    }),
    writer(),
    ...Array.from({ length: o.clients }, client),
  ]);
  latencies.sort((a, b) => a - b);
  staleness.sort((a, b) => a - b);
  return {
    cache: o.cache,
    urls: o.urls.length,
    clients: o.clients,
    seconds: o.seconds,
    warmupSeconds: o.warmupSeconds,
    requests: latencies.length,
    hits,
    hitRatio: latencies.length > 0 ? hits / latencies.length : 0,
    firstReads,
    ...(prewarmMs === undefined ? {} : { prewarmMs }),
    repeatHitRatio: latencies.length > firstReads ? hits / (latencies.length - firstReads) : 0,
    rps: latencies.length / o.seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non2xx,
    rowsReadPer1000: latencies.length > 0 ? (rows * 1000) / latencies.length : 0,
    writes: staleness.length,
    maxStalenessMs: staleness.length > 0 ? (staleness.at(-1) as number) : null,
    p50StalenessMs: staleness.length > 0 ? percentile(staleness, 50) : null,
    stalePolls,
    staleBookmarkReads,
    bulk,
  };
}
