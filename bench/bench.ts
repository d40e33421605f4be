/**
 * npm run bench [-- --quick] [-- --scale N] [-- --seconds S] [-- --bulk-mb M] [-- --no-reads] [-- --no-bulk] [-- --out DIR]
 *
 * Seeds a deterministic catalog into a local D1 of its own (bench/.data/), serves it with
 * `wrangler dev`, and measures reads, bulk jobs and the bundle against their floors (issue 6).
 * Writes RESULTS.md and results.json (bench/ for a full run, bench/.data/quick/ for --quick).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BulkStage, inProcessBulk, runBulkJobs } from "./lib/bulk-stage.ts";
import { buildBundle, bundleConfig } from "./lib/bundle.ts";
import { createState, loadSeed, snapshot, tableCounts } from "./lib/database.ts";
import { log } from "./lib/log.ts";
import { machine } from "./lib/machine.ts";
import { BENCH_DIR } from "./lib/paths.ts";
import { captureAndFloors, measureReads } from "./lib/read-stage.ts";
import { renderMarkdown } from "./lib/report.ts";
import type { Results } from "./lib/results.ts";
import { startDevServer, stopDevServer } from "./lib/server.ts";
import { scenarios } from "./scenarios.ts";

const USAGE = `Usage: npm run bench [-- [--quick] [--scale N] [--seconds S] [--bulk-mb M] [--no-reads] [--no-bulk] [--out DIR]]

  --quick        smoke run: scale 0.5, 1.5 s per load run, 0.25 MB bulk payloads (CI)
  --scale N      seed scale (default 500: 20,000 products, 60,000 variants, 50,000 orders)
  --seconds S    duration of each autocannon run (default 10)
  --bulk-mb M    size of each bulk payload in MB (default 10, the bulk body limit is 10 MiB)
  --no-reads     skip the read scenarios, their SQL capture and floors (bulk jobs and bundle only)
  --no-bulk      skip the bulk jobs
  --out DIR      where RESULTS.md and results.json go (default bench/, or bench/.data/quick/)
  --render       only rewrite RESULTS.md from the results.json already in the output dir`;

const CONNECTIONS = [1, 16];

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
  const errors: string[] = [];
  const setup: Record<string, number> = {};

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
  snapshot(sqliteFile, floorFile);
  const bundle = buildBundle(join(workDir, "bundle"));
  setup.bundle_build = bundle.buildMs;
  const config = bundleConfig(bundle, join(workDir, "wrangler.toml"));

  const server = await startDevServer({ persistTo, config, secret, logFile: join(workDir, "wrangler.log") });
  setup.wrangler_dev_start = server.startMs;
  log(`wrangler dev answering on ${server.origin} after ${server.startMs} ms`);
  let reads: Results["reads"] = [];
  let bulk: BulkStage[] = [];
  try {
    if (!values["no-reads"]) {
      reads = await measureReads({
        origin: server.origin,
        secret,
        scenarios: list,
        connections: CONNECTIONS,
        seconds,
        errors,
      });
    }
    if (!values["no-bulk"]) {
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
  } finally {
    await stopDevServer(server);
  }
  if (reads.length > 0)
    captureAndFloors({ reads, bundle: bundle.entry, floorFile, secret, budgetMs, errors });
  if (bulk.length > 0) {
    // The floors write on floor.sqlite: the in-process run gets its own pre-job copy first.
    const inProcessFile = join(workDir, "in-process.sqlite");
    snapshot(floorFile, inProcessFile);
    inProcessBulk({ stages: bulk, bundle: bundle.entry, sqliteFile: inProcessFile, secret, errors });
    for (const b of bulk) b.floor(sqliteFile);
  }

  const results: Results = {
    mode: quick ? "quick" : "full",
    scale,
    machine: machine(loadAtStart),
    options: { seconds, bulkBytes, connections: CONNECTIONS, sqlFloorBudgetMs: budgetMs },
    setup,
    data,
    reads,
    bulk: bulk.map((b) => b.result),
    bundle: bundle.size,
    errors,
    totalSeconds: (performance.now() - started) / 1000,
  };
  mkdirSync(outDir, { recursive: true });
  const markdown = renderMarkdown(results);
  writeFileSync(join(outDir, "RESULTS.md"), markdown);
  writeFileSync(join(outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log(markdown);
  log(`wrote ${join(outDir, "RESULTS.md")} and results.json in ${results.totalSeconds.toFixed(0)} s`);
  return errors.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
