import type { CacheModeFigures } from "./cache-modes.ts";
import type { StorefrontRun } from "./cache-storefront.ts";
import type { Results } from "./results.ts";

/** The RESULTS.md section of the edge cache: hit, miss and bypass per read, and the storefront workload. */

/** A hit's p50 may exceed the HTTP floor's by this much: it makes no D1 round trip. */
const HIT_OVER_FLOOR_MS = 2;
/** Worker CPU (time outside D1) per hit. */
const HIT_CPU_MS = 1;
const HIT_RATIO = 0.9;
/** Rows read per 1,000 storefront reads: at least this many times fewer than with the cache off. */
const ROWS_FACTOR = 10;
/** The documented freshness bound (docs/edge-cache.md). */
const FRESHNESS_BOUND_MS = 2000;

const f = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const mark = (ok: boolean) => (ok ? "✅" : "❌");
const cell = (m: CacheModeFigures | null) =>
  m ? `${f(m.p50Ms)} / ${f(m.p99Ms)} | ${f(m.cpuMs)} | ${m.rowsRead ?? "–"}` : "– | – | –";

type RttModes = NonNullable<NonNullable<Results["cache"]>["rttModes"]>;

/** Hit, miss and bypass of each cached read in the simulated deployment, one table row per round trip. */
function rttSection(settings: RttModes): string[] {
  if (settings.length === 0) return [];
  const rows = settings.flatMap(({ rttMs, modes }) =>
    modes
      .filter((m) => m.cached)
      .map(
        (m) =>
          `| ${rttMs} | ${m.key} | ${f(m.httpFloor.p50Ms)} | ${f(m.hit.p50Ms)} / ${f(m.hit.p99Ms)} | ${f(m.hit.p50Ms - m.httpFloor.p50Ms)} | ${f(m.hit.cpuMs)} | ${f(m.miss?.p50Ms)} | ${f(m.bypass.p50Ms)} |`,
      ),
  );
  return [
    `In the simulated deployment (\`SIMULATED_D1_RTT_MS\`: every D1 call of the served bundle waits the round trip, src/simulated-latency.ts), a \`wrangler dev\` with the cache on per round trip, the same runs with ${settings[0]?.misses ?? 0} misses per read: a hit makes no D1 round trip (the generations are read once per 2 s per isolate), a miss and a bypass pay theirs.`,
    "",
    "| D1 rtt ms | read scenario | HTTP floor p50 | hit p50 / p99 | hit − floor | hit CPU | miss p50 | bypass p50 |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
  ];
}

export function cacheSection(r: Results): string[] {
  const s = r.cache;
  if (!s) return ["Not measured in this run (`npm run bench -- --only cache` measures it alone)."];
  const modeRows = s.modes.map((m) => {
    if (!m.cached)
      return `| ${m.key} (not cached) | ${f(m.httpFloor.p50Ms)} | ${cell(m.hit)} | – | – | – | ${cell(m.bypass)} |`;
    return `| ${m.key} | ${f(m.httpFloor.p50Ms)} | ${cell(m.hit)} | ${cell(m.miss)} | ${cell(m.bypass)} |`;
  });
  const on = s.storefront.find((x) => x.cache === "on");
  const off = s.storefront.find((x) => x.cache === "off");
  const runRow = (x: StorefrontRun | undefined, label: string) =>
    x
      ? `| ${label} | ${x.requests} (${f(x.rps, 0)}/s) | ${f(x.hitRatio * 100, 1)} % | ${x.firstReads ?? "–"} | ${x.repeatHitRatio === undefined ? "–" : `${f(x.repeatHitRatio * 100, 1)} %`} | ${f(x.p50Ms)} / ${f(x.p99Ms)} | ${f(x.rowsReadPer1000, 0)} | ${x.writes} | ${f(x.maxStalenessMs, 0)} (p50 ${f(x.p50StalenessMs, 0)}) | ${x.stalePolls ?? "–"} | ${x.staleBookmarkReads} | ${x.bulk ? `${x.bulk.records} records, ${x.bulk.status} in ${f(x.bulk.wallMs / 1000, 1)} s` : "–"} |`
      : `| ${label} | not measured | | | | | | | | | | |`;
  const plan = on ?? off;
  return [
    ...(s.run ? [`Measured by ${s.run}.`, ""] : []),
    `\`wrangler dev\` with \`--var EDGE_CACHE:on\` (the local isolate-memory cache, src/edge/memory-cache.ts) on the same state as the other stages. Per read scenario at c=1 (one request at a time on a keep-alive connection through Node's HTTP client: its parser is native, where autocannon's JavaScript one added 2–4 ms of its own to the 100-product page's 106 KB), ${s.modeSeconds} s per run after 3 warm-up requests, every read sent with \`Accept-Encoding: gzip, deflate, br\` as a browser's is (a hit of 1 KiB or more is then sent gzip-compressed, stored so since its miss; the HTTP floor and the misses and bypasses are compressed by \`wrangler dev\` as they are sent): **hit** = the same URL again and again; **miss** = ${s.misses} sequential reads, each right after a write bumped a domain its key carries (a category, price list or review PATCH; a category moved for a list filtered by \`category_ids\`; for a product by id or a products list without \`includes=categories\`, a one-record variants bulk job); **bypass** = \`Cache-Control: no-cache\` (computed now, not stored); the HTTP floor (\`http_floor\`) requested in turn with the hit, one request each, for twice as long (both see the same moments of the shared machine). Cells: p50 / p99 ms (client-side), Worker CPU ms per request (mean time outside D1 from the \`Server-Timing\` phases, the slowest 1 % of requests left out: workerd's clock is wall time, and a request descheduled on the shared machine reads tens of ms), D1 rows read (\`d1-rows\`).`,
    "",
    "| read scenario | HTTP floor p50 | hit p50 / p99 | hit CPU | hit rows | miss p50 / p99 | miss CPU | miss rows | bypass p50 / p99 | bypass CPU | bypass rows |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...modeRows,
    "",
    plan
      ? `Storefront workload: ${plan.clients} concurrent clients, each request's URL drawn by Zipf (s = 1.0) over ${plan.urls} URLs (product pages \`/products/{id}?includes=variants\`, category pages and product list pages, in a fixed shuffled rank order), ${on?.prewarmMs !== undefined ? `with the cache on every URL read once first (16 at a time, ${f(on.prewarmMs / 1000, 0)} s: a warm cache, as a busy storefront's is), then ` : ""}${plan.warmupSeconds} s warm-up then ${plan.seconds} s measured; beside them one catalog write a second, in turn a brand renamed, a category renamed, and a leaf category moved to another parent and renamed (PATCH; \`brands\` and \`categories\` are read by no URL of the workload, \`category_tree\`, which a move bumps, by every category page), and one variants bulk job half way through (bumps \`products\`: every list page, and the pages of the products it changed by their bucket's stamp, src/db/cache-generations.ts). Hit ratio from \`Cache-Status\`, rows read from \`Server-Timing: d1-rows\`, both over the reads after the warm-up; *first reads of a URL* are reads of a URL the run had not read before (a cold cache's misses: at this machine's read rate most of the 10,000-URL tail is read for the first time during the window, where a deployed storefront's traffic has read it before), and *hits among repeat reads* is the hit ratio of the others, what writes leave of a warm cache. Staleness: from a write's 2xx to the start of the first read of the written \`/brands/{id}\` or \`/categories/{id}\` without a bookmark that showed the new name (polled every 5 ms; a read's own queueing under the load is not counted); bookmark reads: the same URL sent with the write's \`x-d1-bookmark\`, counted when it did not show the new name; stale reads after a write: polls sent after the write's 2xx that answered the old name (0 means the staleness column is only the client's own delay in sending the first poll, its event loop being busy with 16 clients). Locally one isolate serves every request, so a write is seen at once by the instance that made it; the 2 s bound is for isolates that did not make it. A write ends the entries whose key carries its domain (src/db/cache-generations.ts): a category move ends the category pages, the bulk job the list pages and its products' pages; the hit ratio after each depends on how many reads fall before the next, so on this machine's read rate (the reads column).`
      : "",
    "",
    "| storefront | reads | hits | first reads of a URL | hits among repeat reads | p50 / p99 ms | D1 rows read per 1,000 | writes | staleness max ms | stale reads after a write | stale bookmark reads | bulk job |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    runRow(on, "cache on"),
    runRow(off, "cache off"),
    "",
    ...(s.bodyFloor
      ? [
          `Body-size reference: \`${s.bodyFloor.path}\` (${f(s.bodyFloor.bytes / 1024, 0)} KiB, computed once per isolate, no D1) answers in ${f(s.bodyFloor.p50Ms)} / ${f(s.bodyFloor.p99Ms)} ms (p50 / p99, c=1; compressed by \`wrangler dev\` as it is sent, where a hit of products_page, ${f((s.modes.find((m) => m.key === "products_page")?.bytes ?? 0) / 1024, 0)} KiB, goes out compressed as it was stored): what a large answer computed without D1 costs here, beside the HTTP floor's few hundred bytes.`,
          "",
        ]
      : []),
    ...rttSection(s.rttModes ?? []),
    ...cacheTargets(r),
  ];
}

function cacheTargets(r: Results): string[] {
  const s = r.cache;
  if (!s) return [];
  // Every setting: the local server's, and each simulated round trip's.
  const settings = [
    { label: "", modes: s.modes },
    ...(s.rttModes ?? []).map((x) => ({ label: ` (rtt ${x.rttMs})`, modes: x.modes })),
  ];
  const over = settings.flatMap(({ label, modes }) =>
    modes
      .filter((m) => m.cached)
      .map((m) => ({ key: `${m.key}${label}`, ms: m.hit.p50Ms - m.httpFloor.p50Ms, cpu: m.hit.cpuMs })),
  );
  const worstOver = over.reduce(
    (a, b) => (b.ms > a.ms ? b : a),
    over[0] ?? { key: "–", ms: Number.NaN, cpu: null },
  );
  const worstCpu = over.reduce(
    (a, b) => ((b.cpu ?? Number.POSITIVE_INFINITY) > (a.cpu ?? 0) ? b : a),
    over[0] ?? { key: "–", ms: 0, cpu: null },
  );
  const on = s.storefront.find((x) => x.cache === "on");
  const off = s.storefront.find((x) => x.cache === "off");
  const factor = on && off ? off.rowsReadPer1000 / Math.max(on.rowsReadPer1000, 1e-9) : null;
  return [
    "Edge cache targets:",
    "",
    `- A hit within ${HIT_OVER_FLOOR_MS} ms of the HTTP floor (p50, c=1), every cached read at every round trip: worst ${worstOver.key} ${f(worstOver.ms)} ms ${mark(over.length > 0 && over.every((x) => x.ms <= HIT_OVER_FLOOR_MS))}`,
    `- Worker CPU per hit ≤ ${HIT_CPU_MS} ms, every cached read: worst ${worstCpu.key} ${f(worstCpu.cpu)} ms ${mark(over.length > 0 && over.every((x) => x.cpu !== null && x.cpu <= HIT_CPU_MS))}`,
    on
      ? `- Storefront ≥ ${HIT_RATIO * 100} % hits after warm-up: ${f(on.hitRatio * 100, 1)} % ${mark(on.hitRatio >= HIT_RATIO)} (repeat reads: ${f((on.repeatHitRatio ?? 0) * 100, 1)} % ${mark((on.repeatHitRatio ?? 0) >= HIT_RATIO)})`
      : "- Storefront hit ratio: not measured",
    factor !== null && on && off
      ? `- D1 rows read per 1,000 storefront reads ≥ ${ROWS_FACTOR}× fewer than with the cache off: ${f(on.rowsReadPer1000, 0)} vs ${f(off.rowsReadPer1000, 0)} (${f(factor, 1)}× fewer) ${mark(factor >= ROWS_FACTOR)}`
      : "- D1 rows read against the cache off: not measured",
    on
      ? `- Largest staleness ≤ the documented bound (${FRESHNESS_BOUND_MS / 1000} s): ${f(on.maxStalenessMs, 0)} ms over ${on.writes} writes ${mark(on.writes > 0 && (on.maxStalenessMs ?? Number.POSITIVE_INFINITY) <= FRESHNESS_BOUND_MS)}`
      : "- Staleness: not measured",
    on
      ? `- 0 stale answers to reads carrying the write's bookmark: ${on.staleBookmarkReads} ${mark(on.writes > 0 && on.staleBookmarkReads === 0)}`
      : "- Bookmark reads: not measured",
  ];
}
