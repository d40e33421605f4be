/**
 * npm run bench [-- --quick] [-- --scale N] [-- --seconds S] [-- --bulk-mb M] [-- --no-reads] [-- --no-bulk] [-- --out DIR]
 *                [-- --only bulk|accept|memory|cpu|rtt|plans|cache|writes] [-- --accept-runs N] [-- --memory-jobs N]
 *                [-- --compare-scale N] [-- --d1-rtt 5,25,75] [-- --queue-delay-ms N]
 *
 * Seeds a deterministic catalog into a local D1 of its own (bench/.data/), serves it with
 * `wrangler dev`, and measures reads, bulk jobs and the bundle against their floors, the accept time
 * of worst-case bulk bodies and the heap of the bulk path, the Worker CPU per request with its
 * breakdown, D1 rows read per read at two catalog sizes, a simulated deployment's round trips, and
 * the edge cache (hit, miss and bypass per read; a storefront workload with the cache on and off), and
 * export jobs of the whole catalog (over wrangler dev, and in Node against their SQL floor).
 * Writes RESULTS.md and results.json (bench/ for a full run, bench/.data/quick/ for --quick).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type AcceptStage, runAcceptShapes } from "./lib/accept-shapes.ts";
import { type BulkStage, inProcessBulk, runBulkJobs } from "./lib/bulk-stage.ts";
import { buildBundle, bundleConfig } from "./lib/bundle.ts";
import { type CacheStage, runCacheStage, storefrontPlan, storefrontRun } from "./lib/cache-stage.ts";
import type { StorefrontRun } from "./lib/cache-storefront.ts";
import { type CompareStage, runCompareCatalog } from "./lib/compare-catalog.ts";
import { type CostStage, measureStorage, probeRowsRead, type RowsReadProbe } from "./lib/cost-stage.ts";
import { measureD1Decode } from "./lib/d1-decode.ts";
import type { RoundTrip } from "./lib/d1-shim.ts";
import { createState, loadSeed, snapshot, tableCounts } from "./lib/database.ts";
import { catalogSize, type ExportStage, runExportHttp, runExportInProcess } from "./lib/export-stage.ts";
import { LATENCY_CLIENT } from "./lib/load.ts";
import { log } from "./lib/log.ts";
import { machine } from "./lib/machine.ts";
import { machineSpeed, speedText } from "./lib/machine-speed.ts";
import { type MemoryStage, runMemoryStage } from "./lib/memory-stage.ts";
import { BENCH_DIR } from "./lib/paths.ts";
import { runPlansStage } from "./lib/plans-stage.ts";
import { captureAndFloors, captureCpu, cpuStage, measureReads } from "./lib/read-stage.ts";
import { renderMarkdown } from "./lib/report.ts";
import type { CpuStage, Results } from "./lib/results.ts";
import { type RttStage, runRttStage } from "./lib/rtt-stage.ts";
import { startDevServer, stopDevServer } from "./lib/server.ts";
import { runWritesStage } from "./lib/writes-stage.ts";
import { scenarios } from "./scenarios.ts";

const USAGE = `Usage: npm run bench [-- [--quick] [--scale N] [--seconds S] [--bulk-mb M] [--no-reads] [--no-bulk] [--out DIR]]

  --quick        smoke run: scale 0.5, 1.5 s per load run, 0.25 MB bulk payloads (CI)
  --scale N      seed scale (default 500: 20,000 products, 60,000 variants, 50,000 orders)
  --seconds S    duration of each load run (default 10)
  --bulk-mb M    size of each bulk payload in MB (default 10, the bulk body limit is 10 MiB)
  --no-reads     skip the read scenarios, their SQL capture and floors (bulk jobs and bundle only)
  --no-bulk      skip the bulk jobs
  --out DIR      where RESULTS.md and results.json go (default bench/, or bench/.data/quick/)
  --only STAGE   run only this stage (bulk, accept, memory, cpu, rtt, plans, cache, export or writes; repeatable) and update its section of
                 the results.json already in the output dir (the other sections stay as they were)
  --accept-runs N   POSTs per body shape and route in the accept stage (default 3; --quick posts
                    3 of the shapes once, to the variants route only)
  --memory-jobs N   consecutive jobs of the memory stage (default 20; 2 with --quick)
  --compare-scale N a second, smaller catalog (default scale / 10; 0: none) seeded in a state of its
                    own and served by its own wrangler dev: each read scenario's D1 rows read there
  --d1-rtt MS,...   the simulated deployment's D1 round trips (default 5,25,75; 25 with --quick)
  --queue-delay-ms N   its queue delivery delay (default 25)
  --rtt-seconds S   duration of each read run of the simulated deployment (default 3; 1 with --quick)
  --render       only rewrite RESULTS.md from the results.json already in the output dir

Stages: reads, bulk (jobs over wrangler dev, then in Node), accept (worst-case 10 MB bulk bodies
per shape against wrangler dev: accept time and a concurrent read), memory (the bulk path's JS
heap in Node: peak per chunk, retained after each of N 10 MB jobs), cpu (the served bundle in Node
over node:sqlite, no server: Worker CPU per request and its phases; a full run measures it with the
reads, which --no-reads skips), rtt (a simulated deployment: wrangler dev restarted per D1 round-trip
time, each read's p50 at c=1 and the two 10 MB jobs' wall time), plans (bulk updates in Node on catalogs
grown by pushes from the demo seed, its planner statistics kept, beside a seeded catalog; \`--only plans\`
seeds no main catalog), cache (wrangler dev with the edge cache on: each read's hit, miss and bypass at
c=1, then a Zipf storefront workload with a catalog write a second and a bulk job, run again on the
cache-off server; --quick runs it for a few seconds), export (the catalog's products as JSONL and variants as CSV
through export jobs over wrangler dev, the products file pushed back unchanged (its jobs' writes), then in
Node: per message time and heap, and the page statements' SQL floor), writes (rows written per record and records/s of
four bulk feeds, each sent first, re-sent unchanged and re-sent with a tenth changed, in Node on seeded
catalogs of two sizes; \`--only writes\` seeds no main catalog). A full run has them all.`;

const STAGES = ["bulk", "accept", "memory", "cpu", "rtt", "plans", "cache", "export", "writes"] as const;

const CONNECTIONS = [1, 16];
/** The simulated queue delivery delay unless `--queue-delay-ms` says otherwise. */
const DEFAULT_QUEUE_DELAY_MS = 25;

async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean" },
      scale: { type: "string" },
      seconds: { type: "string" },
      "bulk-mb": { type: "string" },
      "no-reads": { type: "boolean" },
      "no-bulk": { type: "boolean" },
      out: { type: "string" },
      only: { type: "string", multiple: true },
      "accept-runs": { type: "string" },
      "memory-jobs": { type: "string" },
      "compare-scale": { type: "string" },
      "d1-rtt": { type: "string" },
      "queue-delay-ms": { type: "string" },
      "rtt-seconds": { type: "string" },
      render: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = values.quick ?? false;
  const num = (raw: string | undefined, fallback: number, name: string) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number\n\n${USAGE}`);
    return n;
  };
  const scale = num(values.scale, quick ? 0.5 : 500, "scale");
  const seconds = num(values.seconds, quick ? 1.5 : 10, "seconds");
  const bulkBytes = Math.round(num(values["bulk-mb"], quick ? 0.25 : 10, "bulk-mb") * 1e6);
  const budgetMs = quick ? 200 : 2000;
  const only = (values.only ?? []).flatMap((x) => x.split(","));
  for (const stage of only) {
    if (!(STAGES as readonly string[]).includes(stage))
      throw new Error(`--only takes ${STAGES.join(" or ")}, got '${stage}'\n\n${USAGE}`);
  }
  const runs = (stage: "reads" | "bulk" | (typeof STAGES)[number]) =>
    only.length > 0
      ? (only as string[]).includes(stage)
      : stage === "reads" || stage === "cpu"
        ? !values["no-reads"]
        : stage === "bulk"
          ? !values["no-bulk"]
          : true;
  const acceptRuns = Math.round(num(values["accept-runs"], quick ? 1 : 3, "accept-runs"));
  const memoryJobs = Math.round(num(values["memory-jobs"], quick ? 2 : 20, "memory-jobs"));
  const compareScale =
    values["compare-scale"] === "0" ? 0 : num(values["compare-scale"], scale / 10, "compare-scale");
  const rtts = (values["d1-rtt"] ?? (quick ? "25" : "5,25,75")).split(",").map((x) => {
    const n = Number(x);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--d1-rtt takes ms values, got '${x}'\n\n${USAGE}`);
    return n;
  });
  const queueDelayMs =
    values["queue-delay-ms"] === undefined ? DEFAULT_QUEUE_DELAY_MS : Number(values["queue-delay-ms"]);
  if (!Number.isFinite(queueDelayMs) || queueDelayMs < 0)
    throw new Error(`--queue-delay-ms must be a number of ms\n\n${USAGE}`);
  const rttSeconds = num(values["rtt-seconds"], quick ? 1 : 3, "rtt-seconds");
  const outDir = values.out ?? (quick ? join(BENCH_DIR, ".data", "quick") : BENCH_DIR);
  if (values.render) {
    const saved = JSON.parse(readFileSync(join(outDir, "results.json"), "utf8")) as Results;
    writeFileSync(join(outDir, "RESULTS.md"), renderMarkdown(saved));
    log(`rewrote ${join(outDir, "RESULTS.md")} from results.json`);
    return 0;
  }
  const workDir = join(BENCH_DIR, ".data", quick ? "quick" : `scale-${scale}`);
  const persistTo = join(workDir, "state");
  const floorFile = join(workDir, "floor.sqlite");
  const secret = `sfk_bench_${randomBytes(18).toString("base64url")}`;
  const runId = randomBytes(3).toString("hex");
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const speedAtStart = machineSpeed();
  log(`machine speed: ${speedText(speedAtStart)}`);
  const errors: string[] = [];
  const setup: Record<string, number> = {};

  if (only.length === 1 && (only[0] === "plans" || only[0] === "writes")) {
    // Their catalogs are their own (demo seed + pushes, or seeds of two sizes): the main catalog is
    // neither seeded nor served.
    const stage = only[0];
    const previous = join(outDir, "results.json");
    if (!existsSync(previous))
      throw new Error(`--only ${stage} adds to ${previous}: run the benchmark once first`);
    const bundle = buildBundle(join(workDir, "bundle"));
    const o = { bundle: bundle.entry, workDir, secret, quick, errors };
    const saved = JSON.parse(readFileSync(previous, "utf8")) as Results;
    const note = `\`--only ${stage}\` on ${new Date().toISOString()} (machine at ${speedText(speedAtStart)})`;
    const results = { ...saved };
    if (stage === "plans") {
      const plans = await runPlansStage(o);
      results.plans = { ...plans, run: `${plans.run}, ${note}` };
    } else {
      const writes = await runWritesStage(o);
      results.writes = { ...writes, run: `${writes.run}, ${note}` };
    }
    results.errors = [...saved.errors.filter((e) => !e.startsWith(`${stage} `)), ...errors];
    writeFileSync(join(outDir, "RESULTS.md"), renderMarkdown(results));
    writeFileSync(previous, `${JSON.stringify(results, null, 2)}\n`);
    log(
      `wrote ${join(outDir, "RESULTS.md")} and results.json in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    return errors.length > 0 ? 1 : 0;
  }
  log(`scale ${scale}, ${seconds} s per load run, state in ${workDir}`);
  const { sqliteFile, migrateMs } = createState(persistTo);
  setup.migrations = migrateMs;
  const seeded = await loadSeed(sqliteFile, scale, secret);
  setup.seed_build = seeded.buildMs;
  setup.seed_load = seeded.loadMs;
  log(`seed: ${seeded.statements} statements built in ${seeded.buildMs} ms, loaded in ${seeded.loadMs} ms`);
  const data = tableCounts(sqliteFile, [
    "products",
    "variants",
    "variant_prices",
    "product_translations",
    "orders",
    "order_line_items",
    "contacts",
    "reviews",
    "price_lists",
    "price_list_variant_prices",
    "categories",
  ]);
  const list = scenarios(sqliteFile);
  const storage = measureStorage(sqliteFile);
  snapshot(sqliteFile, floorFile);
  const bundle = buildBundle(join(workDir, "bundle"));
  setup.bundle_build = bundle.buildMs;
  const config = bundleConfig(bundle, join(workDir, "wrangler.toml"));

  const needsServer = runs("reads") || runs("bulk") || runs("accept") || runs("cache") || runs("export");
  const cachePlan = runs("cache") ? storefrontPlan(floorFile, quick) : undefined;
  const server =
    needsServer &&
    (await startDevServer({ persistTo, config, secret, logFile: join(workDir, "wrangler.log") }));
  if (server) {
    setup.wrangler_dev_start = server.startMs;
    log(`wrangler dev answering on ${server.origin} after ${server.startMs} ms`);
  }
  let reads: Results["reads"] = [];
  let bulk: BulkStage[] = [];
  let accept: AcceptStage | undefined;
  let memory: MemoryStage | undefined;
  let rtt: RttStage | undefined;
  let cpu: CpuStage | undefined;
  let cache: CacheStage | undefined;
  let cacheOff: StorefrontRun | undefined;
  let exportsStage: ExportStage | undefined;
  let mainRowsRead = new Map<string, RowsReadProbe>();
  let compareRowsRead = new Map<string, RowsReadProbe>();
  try {
    if (server && runs("reads")) {
      reads = await measureReads({
        origin: server.origin,
        secret,
        scenarios: list,
        connections: CONNECTIONS,
        seconds,
        errors,
      });
      mainRowsRead = await probeRowsRead(server.origin, secret, list);
    }
    if (server && runs("bulk")) {
      bulk = await runBulkJobs({
        origin: server.origin,
        secret,
        runId,
        bulkBytes,
        floorFile,
        workDir,
        timeoutMs: quick ? 120_000 : 30 * 60_000,
        errors,
      });
    }
    if (server && runs("accept")) {
      accept = await runAcceptShapes({
        origin: server.origin,
        secret,
        sqliteFile: floorFile,
        runs: acceptRuns,
        quick,
        errors,
      });
    }
    if (server && runs("export")) {
      // Before the bulk jobs' rows are counted in: the catalog as seeded (floor.sqlite's copy).
      exportsStage = {
        measuredAt: new Date().toISOString(),
        ...catalogSize(floorFile),
        ...(await runExportHttp({ origin: server.origin, secret, workDir, sqliteFile: floorFile, errors })),
        inProcess: [],
      };
    }
    if (server && cachePlan) {
      // The storefront workload on this cache-off server: what the cache stage compares against.
      cacheOff = await storefrontRun(server.origin, secret, "off", cachePlan, errors);
    }
  } finally {
    if (server) await stopDevServer(server);
  }
  // The second catalog, after the first server stopped: one wrangler dev at a time on the machine.
  const compareStages: CompareStage[] = [];
  if (runs("reads"))
    compareStages.push(async (catalog) => {
      compareRowsRead = await probeRowsRead(catalog.origin, catalog.secret, catalog.scenarios);
    });
  // The bulk jobs again on the smaller catalog: throughput must not fall as the catalog grows.
  let compareBulk: { scale: number; stages: BulkStage[]; serverFile: string } | undefined;
  if (runs("bulk"))
    compareStages.push(async (catalog) => {
      const stages = await runBulkJobs({
        origin: catalog.origin,
        secret: catalog.secret,
        runId,
        bulkBytes,
        floorFile: catalog.floorFile,
        workDir: catalog.workDir,
        timeoutMs: quick ? 120_000 : 30 * 60_000,
        errors,
      });
      compareBulk = { scale: catalog.scale, stages, serverFile: catalog.sqliteFile };
    });
  if (compareScale > 0 && compareStages.length > 0) {
    await runCompareCatalog({ scale: compareScale, workDir, bundle, secret, stages: compareStages, errors });
  }
  // Its floors once its server stopped, on its own pre-job copy.
  if (compareBulk) for (const b of compareBulk.stages) b.floor(compareBulk.serverFile);
  const cost: CostStage = {
    scale,
    compareScale: compareScale > 0 ? compareScale : null,
    rowsRead: list
      .filter((x) => x.kind === "read")
      .map((x) => ({ key: x.key, main: mainRowsRead.get(x.key), compare: compareRowsRead.get(x.key) })),
    storage,
  };
  if (runs("memory")) {
    // Before the floors, which write on floor.sqlite: the jobs run on a pre-job copy of their own.
    const memoryFile = join(workDir, "memory.sqlite");
    snapshot(floorFile, memoryFile);
    memory = runMemoryStage({
      bundle: bundle.entry,
      sqliteFile: memoryFile,
      secret,
      workDir,
      bulkBytes,
      jobs: memoryJobs,
      errors,
    });
  }
  if (exportsStage) {
    // On a copy of its own: the export jobs write their bookkeeping rows.
    const exportFile = join(workDir, "export.sqlite");
    snapshot(floorFile, exportFile);
    exportsStage.inProcess = runExportInProcess({
      bundle: bundle.entry,
      sqliteFile: exportFile,
      secret,
      errors,
    });
  }
  const trips = new Map<string, RoundTrip[]>();
  if (reads.length > 0)
    cpu = captureAndFloors({ reads, bundle: bundle.entry, floorFile, secret, budgetMs, errors });
  else if (runs("cpu")) {
    const measured = captureCpu({
      scenarios: list,
      bundle: bundle.entry,
      floorFile,
      secret,
      budgetMs,
      errors,
    });
    cpu = { ...cpuStage(measured, budgetMs), run: "`--only cpu`, without the HTTP reads" };
    for (const m of measured) trips.set(m.scenario.key, m.capture.trips);
  }
  for (const read of reads) if (read.capture) trips.set(read.scenario.key, read.capture.trips);
  if (cpu && trips.size > 0) {
    const decode = await measureD1Decode({
      scenarios: [...trips].map(([key, t]) => ({ key, trips: t })),
      floorFile,
      workDir,
      iterations: quick ? 10 : 50,
      runs: quick ? 3 : 9,
      errors,
    });
    for (const s of cpu.scenarios) s.d1DecodeWorkerdMs = decode.get(s.key) ?? null;
  }
  if (bulk.length > 0) {
    // The floors write on floor.sqlite: the in-process run gets its own pre-job copy first.
    const inProcessFile = join(workDir, "in-process.sqlite");
    snapshot(floorFile, inProcessFile);
    inProcessBulk({ stages: bulk, bundle: bundle.entry, sqliteFile: inProcessFile, secret, errors });
    for (const b of bulk) b.floor(sqliteFile);
  }
  if (cachePlan) {
    // Its writes rename a brand and update variants, as the cache-off workload above did.
    cache = await runCacheStage({
      persistTo,
      config,
      secret,
      logFile: join(workDir, "wrangler-cache.log"),
      scenarios: list,
      plan: cachePlan,
      off: cacheOff,
      rtts,
      quick,
      errors,
    });
  }
  if (runs("rtt")) {
    // Last: its jobs add rows to the served state, which every measurement above has read.
    rtt = await runRttStage({
      rtts,
      queueDelayMs,
      persistTo,
      config,
      secret,
      logFile: join(workDir, "wrangler-rtt.log"),
      scenarios: list,
      readSeconds: rttSeconds,
      bulkBytes,
      floorFile,
      runId,
      timeoutMs: quick ? 120_000 : 30 * 60_000,
      errors,
    });
  }

  const plans = runs("plans")
    ? await runPlansStage({ bundle: bundle.entry, workDir, secret, quick, errors })
    : undefined;
  const writes = runs("writes")
    ? await runWritesStage({ bundle: bundle.entry, workDir, secret, quick, errors })
    : undefined;

  const fresh: Results = {
    mode: quick ? "quick" : "full",
    scale,
    machine: machine(loadAtStart, speedAtStart),
    options: {
      seconds,
      bulkBytes,
      connections: CONNECTIONS,
      sqlFloorBudgetMs: budgetMs,
      latencyClient: LATENCY_CLIENT,
    },
    setup,
    data,
    reads,
    bulk: bulk.map((b) => b.result),
    compareBulk: compareBulk && { scale: compareBulk.scale, jobs: compareBulk.stages.map((b) => b.result) },
    bundle: bundle.size,
    accept,
    memory,
    rtt,
    cpu,
    cost,
    plans,
    cache,
    exports: exportsStage,
    writes,
    errors,
    totalSeconds: (performance.now() - started) / 1000,
  };
  const previous = join(outDir, "results.json");
  const results =
    only.length > 0 && existsSync(previous)
      ? mergeStages(JSON.parse(readFileSync(previous, "utf8")) as Results, fresh, only)
      : fresh;
  mkdirSync(outDir, { recursive: true });
  const markdown = renderMarkdown(results);
  writeFileSync(join(outDir, "RESULTS.md"), markdown);
  writeFileSync(join(outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log(markdown);
  log(`wrote ${join(outDir, "RESULTS.md")} and results.json in ${results.totalSeconds.toFixed(0)} s`);
  return errors.length > 0 ? 1 : 0;
}

/**
 * `--only`: the stages run replace theirs in the results already in the output dir; the rest of
 * that run (and its machine, date and commit) stays, with this run's errors added.
 */
function mergeStages(saved: Results, fresh: Results, only: string[]): Results {
  const merged = { ...saved };
  const speed = fresh.machine.speed
    ? ` (machine at ${speedText(Math.min(...fresh.machine.speed))} or more)`
    : "";
  const note = `\`--only ${only.join(",")}\` on ${fresh.machine.date}, commit ${fresh.machine.commit}${speed}`;
  if (only.includes("bulk")) {
    merged.bulkRun = note;
    merged.bulk = fresh.bulk;
    merged.compareBulk = fresh.compareBulk;
  }
  if (only.includes("accept") && fresh.accept) merged.accept = { ...fresh.accept, run: note };
  if (only.includes("memory") && fresh.memory) merged.memory = { ...fresh.memory, run: note };
  if (only.includes("rtt") && fresh.rtt) merged.rtt = { ...fresh.rtt, run: note };
  if (only.includes("cpu") && fresh.cpu) merged.cpu = { ...fresh.cpu, run: note };
  if (only.includes("plans") && fresh.plans) merged.plans = { ...fresh.plans, run: note };
  if (only.includes("cache") && fresh.cache) merged.cache = { ...fresh.cache, run: note };
  if (only.includes("export") && fresh.exports) merged.exports = { ...fresh.exports, run: note };
  if (only.includes("writes") && fresh.writes) merged.writes = { ...fresh.writes, run: note };
  // Each stage's errors start with its name: the stages run again drop their old ones.
  const stale = new RegExp(`^(\\(--only [^)]*\\) )?(${only.join("|")}) `);
  merged.errors = [
    ...saved.errors.filter((e) => !stale.test(e)),
    ...fresh.errors.map((e) => `(--only ${only.join(",")}) ${e}`),
  ];
  return merged;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
