import { LATENCY_CLIENT } from "./load.ts";
import { speedText } from "./machine-speed.ts";
import { cacheSection } from "./report-cache.ts";
import { costSection } from "./report-cost.ts";
import { cpuSection, cpuTargets } from "./report-cpu.ts";
import { exportSection, exportTargets } from "./report-export.ts";
import { acceptSection, hardeningTargets, memorySection } from "./report-hardening.ts";
import { plansSection } from "./report-plans.ts";
import { rttSection } from "./report-rtt.ts";
import { type BulkResult, derive, type ReadResult, type Results, roundTripsOf } from "./results.ts";
import { writesSection } from "./writes-stage.ts";

const f = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const int = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : Math.round(n).toLocaleString("en-US");
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const ROUND_TRIP_TARGET = 4;
/** Records/s end to end of the 10 MB jobs on realistic payloads (each also shown against its floor). */
const BULK_RATE_TARGETS: Partial<Record<BulkResult["key"], { label: string; target: number }>> = {
  products_upsert: { label: "Products upsert", target: 4000 },
  variants_update: { label: "Variant updates", target: 20_000 },
};
const BUNDLE_GZIP_TARGET = 400 * 1024;

function readTable(r: Results): string[] {
  const httpFloor = r.reads.find((x) => x.scenario.kind === "http-floor");
  const floorAt = (c: number) => httpFloor?.loads.find((l) => l.connections === c);
  const lines = [
    "| scenario | c | req/s | p50 ms | p99 ms | D1 round trips | SQL stmts | SQL floor ms | HTTP floor ms | engine overhead ms | ratio |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const read of r.reads) {
    for (const load of read.loads) {
      const d = derive(read, load, read.scenario.kind === "read" ? floorAt(load.connections) : undefined);
      const isRead = read.scenario.kind === "read";
      lines.push(
        `| ${read.scenario.key} | ${load.connections} | ${int(load.rps)} | ${f(load.p50Ms, 2)} | ${f(load.p99Ms, 2)} | ${
          roundTripsOf(read) ?? "–"
        } | ${read.sqlFloor?.statements ?? "–"} | ${isRead ? f(d.sqlFloorMs, 2) : "–"} | ${
          isRead ? f(d.httpFloorMs, 2) : "–"
        } | ${isRead ? f(d.overheadMs, 2) : "–"} | ${isRead ? f(d.ratio, 2) : "–"} |`,
      );
    }
  }
  return lines;
}

function scenarioList(reads: ReadResult[]): string[] {
  return reads.map(
    (read) => `- \`${read.scenario.key}\`: ${read.scenario.title} — \`GET ${read.scenario.path}\``,
  );
}

function bulkTable(jobs: BulkResult[]): string[] {
  const lines = [
    "| job | records | payload | accept ms | wall s | records/s | floor ms | floor records/s | ratio | in-process s (records/s) | status |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const b of jobs) {
    const wallS = b.run ? b.run.wallMs / 1000 : null;
    const rate = wallS ? b.payload.records / wallS : null;
    const floorRate = b.floor ? b.payload.records / (b.floor.ms / 1000) : null;
    const finished = b.inProcess && ["done", "done_with_errors", "failed"].includes(b.inProcess.status);
    const inProcessS = b.inProcess && finished ? b.inProcess.wallMs / 1000 : null;
    const status = b.error
      ? `error: ${b.error.slice(0, 80)}`
      : `${b.run?.status} (${b.run?.summary.succeeded_records ?? "?"} ok, ${b.run?.summary.failed_records ?? "?"} failed)`;
    lines.push(
      `| ${b.key} | ${int(b.payload.records)} (${int(b.payload.variants)} variants, ${int(b.payload.prices)} prices) | ${(
        b.payloadBytes / 1e6
      ).toFixed(
        2,
      )} MB | ${int(b.run?.acceptMs)} | ${f(wallS, 2)} | ${int(rate)} | ${f(b.floor?.ms, 1)} | ${int(floorRate)} | ${
        b.run && b.floor ? f(b.run.wallMs / b.floor.ms, 1) : "–"
      } | ${f(inProcessS, 2)} (${int(inProcessS ? b.payload.records / inProcessS : null)}) | ${status} |`,
    );
  }
  return lines;
}

const recordsPerSecond = (b: BulkResult | undefined) =>
  b?.run ? b.payload.records / (b.run.wallMs / 1000) : null;

/** The bulk jobs on the compare catalog, and each job's throughput there against the main run's. */
function compareBulkSection(r: Results): string[] {
  const compare = r.compareBulk;
  if (!compare || compare.jobs.length === 0) return [];
  const growth = compare.jobs.map((small) => {
    const large = r.bulk.find((b) => b.key === small.key);
    const [a, b] = [recordsPerSecond(small), recordsPerSecond(large)];
    const verdict = a && b ? (b >= a * 0.9 ? "✅" : "❌") : "";
    return `- \`${small.key}\`: ${int(a)} records/s at scale ${compare.scale} → ${int(b)} at scale ${r.scale} (${
      a && b ? `${f((b / a) * 100, 0)} %` : "–"
    }) ${verdict}`;
  });
  return [
    "",
    `The same jobs on the compare catalog (scale ${compare.scale}, its own state and \`wrangler dev\`; payloads built from that catalog's own ids and references). Throughput must not fall as the catalog grows (✅ when the larger catalog keeps at least 90 % of the smaller one's records/s: two runs on this shared machine differ by that much):`,
    "",
    ...bulkTable(compare.jobs),
    "",
    ...growth,
  ];
}

function bulkDetails(r: Results): string[] {
  return r.bulk.flatMap((b) => {
    const parts = [];
    if (b.floor)
      parts.push(
        `floor rows ${Object.entries(b.floor.tables)
          .map(([t, n]) => `${t} ${int(n)}`)
          .join(", ")}`,
      );
    if (b.inProcess) {
      parts.push(
        `in-process: ${b.inProcess.status}, accepted in ${int(b.inProcess.acceptMs)} ms, ${b.inProcess.messages} queue messages with ${f(b.inProcess.d1CallsPerMessage, 1)} D1 calls each`,
      );
    }
    if (b.run?.acceptServerTiming)
      parts.push(`the 202 answer said \`Server-Timing: ${b.run.acceptServerTiming}\``);
    if (b.run?.startedAt)
      parts.push(`job created ${b.run.createdAt}, started ${b.run.startedAt}, finished ${b.run.finishedAt}`);
    return parts.length > 0 ? [`- \`${b.key}\`: ${parts.join("; ")}.`] : [];
  });
}

/**
 * Time per chunk of every bulk job: wall time over the server's chunk count, and the in-process
 * queue messages (one per chunk in a clean run). A statement whose cost grows with the catalog
 * shows here first (the clearing updates once took 12–25 s per chunk on a scale-300 catalog).
 */
function chunkTable(r: Results): string[] {
  const lines = [
    "| job | what | chunks | ms per chunk (wall / chunks) | in-process ms per chunk (median / max) |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  for (const b of r.bulk) {
    const perChunk = b.run && b.chunks ? b.run.wallMs / b.chunks : null;
    const m = b.inProcess?.messageMs;
    lines.push(
      `| ${b.key} | ${b.title} | ${int(b.chunks)} | ${f(perChunk, 1)} | ${m ? `${f(m.median, 1)} / ${f(m.max, 1)}` : "–"} |`,
    );
  }
  return lines;
}

const oneLine = (sql: string, max = 220) => {
  const flat = sql.replace(/\s+/g, " ").replace(/\|/g, "\\|");
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** The statements that make up most of each SQL floor, with their query plans. */
function slowStatements(r: Results): string[] {
  const lines = ["| scenario | ms | rows | statement | plan |", "| --- | ---: | ---: | --- | --- |"];
  for (const read of r.reads) {
    const costs = read.sqlFloor?.costs ?? [];
    for (const c of costs.filter((x, i) => i < 3 && x.ms >= 0.2)) {
      lines.push(
        `| ${read.scenario.key} | ${f(c.ms, 2)} | ${int(c.rows)} | \`${oneLine(c.sql)}\` | ${oneLine(c.plan.join("; "), 200)} |`,
      );
    }
  }
  return lines.length > 2 ? lines : ["No statement above 0.2 ms."];
}

function targets(r: Results): string[] {
  const out: string[] = [];
  const httpFloor = r.reads.find((x) => x.scenario.kind === "http-floor");
  for (const read of r.reads.filter((x) => x.scenario.kind === "read")) {
    const trips = roundTripsOf(read);
    const c1 = read.loads.find((l) => l.connections === 1);
    const floor1 = httpFloor?.loads.find((l) => l.connections === 1);
    const d = c1 ? derive(read, c1, floor1) : null;
    const allowed = d?.sqlFloorMs != null ? Math.max(0.3 * d.sqlFloorMs, 2) : null;
    const overheadOk = d?.overheadMs != null && allowed !== null ? d.overheadMs <= allowed : null;
    out.push(
      `| ${read.scenario.key} | ${trips ?? "–"} ${trips !== null && trips <= ROUND_TRIP_TARGET ? "✅" : "❌"} | ${f(
        d?.overheadMs,
        2,
      )} ms of ${f(allowed, 2)} allowed ${overheadOk === null ? "" : overheadOk ? "✅" : "❌"} |`,
    );
  }
  return [
    "| read scenario | D1 round trips (≤ 4) | engine overhead at c=1 (≤ 30 % of SQL floor or ≤ 2 ms) |",
    "| --- | --- | --- |",
    ...out,
  ];
}

function otherTargets(r: Results): string[] {
  const out: string[] = [];
  for (const b of r.bulk) {
    const goal = BULK_RATE_TARGETS[b.key];
    if (!goal || !b.run) continue;
    const rate = b.payload.records / (b.run.wallMs / 1000);
    const ratio = b.floor ? b.run.wallMs / b.floor.ms : null;
    const floorRate = b.floor ? b.payload.records / (b.floor.ms / 1000) : null;
    const floorMisses = floorRate !== null && floorRate < goal.target;
    out.push(
      `- ${goal.label} end to end (10 MB, scale ${r.scale}): ${int(rate)}/s (target ≥ ${int(goal.target)}/s) ${rate >= goal.target ? "✅" : "❌"}; ${f(ratio, 1)}× its node:sqlite floor${floorMisses ? `, whose own ${int(floorRate)}/s on this run's machine is under the target` : ""}`,
    );
  }
  if (r.bundle) {
    out.push(
      `- Bundle: ${kib(r.bundle.gzipBytes)} gzip (target ≤ 400 KiB) ${r.bundle.gzipBytes <= BUNDLE_GZIP_TARGET ? "✅" : "❌"}, ${kib(r.bundle.rawBytes)} raw`,
    );
  }
  return out;
}

/** The read sections, or one line when the run skipped them (`--no-reads`). */
function readSections(r: Results): string[] {
  if (r.reads.length === 0) {
    return r.cpu
      ? [...cpuSection(r), "", "Latency: not measured (`--no-reads` or `--only`)."]
      : ["Not measured (`--no-reads`)."];
  }
  return [
    ...cpuSection(r),
    "",
    "Latency over HTTP (`wrangler dev`):",
    "",
    ...readTable(r),
    "",
    ...scenarioList(r.reads),
    "",
    "Slowest statements of each SQL floor (each alone, median; plan from EXPLAIN QUERY PLAN):",
    "",
    ...slowStatements(r),
  ];
}

/** The command line that produced the results. */
function command(r: Results): string {
  const flags = [
    r.mode === "quick" ? "--quick" : r.scale === 500 ? "" : `--scale ${r.scale}`,
    r.reads.length === 0 ? "--no-reads" : "",
    r.bulk.length === 0 ? "--no-bulk" : "",
  ].filter((f) => f !== "");
  return `npm run bench${flags.length > 0 ? ` -- ${flags.join(" ")}` : ""}`;
}

export function renderMarkdown(r: Results): string {
  const m = r.machine;
  const setup = Object.entries(r.setup)
    .map(([k, v]) => `${k} ${int(v)} ms`)
    .join(", ");
  const data = Object.entries(r.data)
    .map(([k, v]) => `${k} ${int(v)}`)
    .join(", ");
  return [
    "# Benchmark results",
    "",
    `Produced by \`${command(r)}\` (bench/bench.ts); the raw numbers are in results.json beside this file.`,
    "",
    "| machine | |",
    "| --- | --- |",
    `| date | ${m.date} |`,
    `| commit | ${m.commit} |`,
    `| scale | ${r.scale} (${r.mode}) |`,
    `| CPU | ${m.cpu}, ${m.nproc} cores (nproc) |`,
    `| memory | ${m.memoryGiB} GiB |`,
    `| runtime | Node ${m.node}, wrangler ${m.wrangler} (\`wrangler dev\`, local D1), ${m.platform} |`,
    `| load | ${r.options.seconds} s per run after 5 warm-up requests: ${r.options.latencyClient === LATENCY_CLIENT ? "one request at a time through node:http at c=1, autocannon at c=16" : "autocannon at c=1 and c=16 (before the latency runs' own client)"} |`,
    `| load average (1 min) | ${m.loadAverage.map((x) => x.toFixed(2)).join(" at start, ")} at the end (other processes share the machine) |`,
    ...(m.speed
      ? [
          `| speed | ${m.speed.map((x) => speedText(x)).join(" at start, ")} at the end: node:sqlite in memory, where the project guide measured about 2 M on this machine kind (bench/lib/machine-speed.ts). Floors and ratios are measured in the same minutes as their figures; absolute rates of two runs compare only at a like speed |`,
        ]
      : []),
    `| total run time | ${int(r.totalSeconds)} s |`,
    "",
    `Data: ${data}.`,
    "",
    `Setup: ${setup}.`,
    "",
    "## Reads",
    "",
    ...readSections(r),
    "",
    "## Bulk jobs (POST to final state)",
    "",
    ...(r.bulkRun ? [`Measured by ${r.bulkRun}.`, ""] : []),
    ...bulkTable(r.bulk),
    ...compareBulkSection(r),
    "",
    ...bulkDetails(r),
    "",
    "Time per chunk (at most 200 records each):",
    "",
    ...chunkTable(r),
    "",
    "## Bulk updates under stale planner statistics (catalogs grown by pushes)",
    "",
    ...plansSection(r.plans),
    "",
    ...writesSection(r.writes),
    "## Bundle",
    "",
    r.bundle
      ? `\`wrangler deploy --dry-run --outdir\`: ${kib(r.bundle.rawBytes)} raw, ${kib(r.bundle.gzipBytes)} gzip (${r.bundle.files.map((x) => `${x.name} ${kib(x.bytes)}`).join(", ")}).`
      : "not measured",
    "",
    "## Accept time per bulk body shape",
    "",
    ...acceptSection(r),
    "",
    "## Heap of the bulk path",
    "",
    ...memorySection(r),
    "",
    "## Export jobs of the whole catalog",
    "",
    ...exportSection(r),
    "",
    "## Cost at scale: D1 rows read and storage",
    "",
    ...costSection(r),
    "",
    "## Simulated deployment: D1 round trip and queue delay",
    "",
    ...rttSection(r),
    "",
    "## Edge cache: hit, miss and bypass; a storefront workload",
    "",
    ...cacheSection(r),
    "",
    "## Targets",
    "",
    ...(r.reads.length > 0 ? [...targets(r), ""] : []),
    ...cpuTargets(r),
    ...otherTargets(r),
    ...hardeningTargets(r),
    ...exportTargets(r),
    ...(r.errors.length > 0 ? ["", "## Errors during the run", "", ...r.errors.map((e) => `- ${e}`)] : []),
    "",
    "## Method",
    "",
    "- **State**: a persist dir of its own under bench/.data/ (never the developer's .wrangler/): `wrangler d1 migrations apply --local --persist-to`, then `buildSeed({ scale })` written straight into the SQLite file wrangler created (node:sqlite, one transaction), plus an API key whose secret only the run knows; then `wrangler dev --persist-to … --var ENVIRONMENT:development` (rate limits off) on a free loopback port.",
    `- **Reads**: each scenario gets 5 sequential warm-up requests, then a run at 1 connection (${r.options.latencyClient === LATENCY_CLIENT ? "one request at a time on a keep-alive connection through Node's HTTP client, whose parser is native: autocannon's JavaScript parser added 2–4 ms to a 100 KB answer, a cost of the client" : "autocannon in this run; later runs send one request at a time through Node's HTTP client, whose parser is native, where autocannon's JavaScript one added 2–4 ms to a 100 KB answer"}) and one at 16 (autocannon). p50/p99 come from each response's time, from sending it to the end of its body (sub-millisecond). D1 round trips are the median \`Server-Timing: d1;dur=\` the responses reported.`,
    "- **HTTP floor**: `http_floor`, an authenticated route that passes every middleware and answers without D1 (a 400 for a malformed job id), measured on its own (its rows) and again right before each read run at the same concurrency for half as long (the HTTP floor column: load from other processes drifts, pairs do not). `store` is shown for reference (1 D1 round trip). The server is `wrangler dev` serving the bundle of `wrangler deploy --dry-run` (no_bundle), so edits to src/ during a run change nothing.",
    "- **SQL floor**: the statements the engine sends for one hot request, captured by calling the served bundle's `fetch` in Node over a recording D1 shim (bench/lib/d1-shim.ts) on a byte copy of the same database, then run with node:sqlite on that copy, prepared once, in order; the median per request. The capture's round-trip count is checked against Server-Timing.",
    "- **Engine overhead** = API − HTTP floor − SQL floor; **ratio** = API / (HTTP floor + SQL floor). At c=1 the times are median latencies; at c=16 they are the time per request under saturation (1000 / req/s), for the route and the HTTP floor alike.",
    "- **Bulk**: wall time from the POST until GET /api/v1/jobs/{id} (polled every 100 ms) shows a final status; records/s = records / wall time. *In-process*: the same payload through the same bundle in Node (its `fetch`, then its `queue` handler for each chunk message, one at a time) over node:sqlite and in-memory R2/queues, on a pre-job copy: the engine's own cost without workerd, the local queue or D1 transport. Floor: the same rows written with node:sqlite on the pre-job copy in one transaction, one prepared statement execution per row: for the products upsert the rows read back from the server's database after the job, upserted (the updated products' categories and images deleted first); for the variants update each payload record replayed in order (stock, each market price upserted or deleted, each name upserted or deleted), then the touched products' `updated_at`. The clearing jobs (`variants_clear_prices`, `variants_clear_translations`) update the last 1,000 variants by id, each record removing one market's price or one locale's name; their floor deletes the same rows by primary key. Time per chunk: the wall time over the job's chunk count, and the in-process time of each queue message.",
    "",
  ].join("\n");
}
