/**
 * `npm run bench:ab -- --base REF`: is the working tree faster or slower than REF? Both bundles
 * (`wrangler deploy --dry-run`) run the same bulk jobs and exports in Node over node:sqlite
 * (bench/bulk-inprocess.ts, bench/export-inprocess.ts), in turn, round after round, each on a fresh
 * copy of one seeded catalog; the verdict is read from each round's own head ÷ base CPU time, as the
 * machine's speed drifts several-fold within an hour (bench/lib/machine-speed.ts) while one round
 * takes a minute or two. The catalog is seeded with the working tree's migrations and seed: a base
 * whose schema differs in a way its bundle cannot run on fails its jobs, and the table says so.
 */

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type AbSample, summarizeAb } from "./lib/ab-summary.ts";
import { productsPayload, variantsPayload } from "./lib/bulk.ts";
import { buildBundle } from "./lib/bundle.ts";
import { readCatalog } from "./lib/catalog-refs.ts";
import { createState, loadSeed, snapshot } from "./lib/database.ts";
import { runHarness } from "./lib/harness.ts";
import { log } from "./lib/log.ts";
import { machineSpeed, speedText } from "./lib/machine-speed.ts";
import { BENCH_DIR, PROJECT_ROOT } from "./lib/paths.ts";

const USAGE = `Usage: npm run bench:ab -- --base REF [--rounds N] [--scale S] [--bulk-mb M] [--no-exports]

  --base REF     the commit, branch or tag to compare the working tree with (required)
  --rounds N     rounds, each running both bundles in turn (default 6; a verdict needs 5; the first goes head first, the next base first, …)
  --scale S      seed scale of the catalog (default 100: 4,000 products, 12,000 variants)
  --bulk-mb M    size of each bulk payload in MB (default 10)
  --no-exports   bulk jobs only (the products and variants exports take most of a round)`;

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "6" },
    scale: { type: "string", default: "100" },
    "bulk-mb": { type: "string", default: "10" },
    "no-exports": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help || !values.base) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const rounds = Number(values.rounds);
const scale = Number(values.scale);
const bulkBytes = Math.round(Number(values["bulk-mb"]) * 1_000_000);
const dir = join(BENCH_DIR, ".data", "ab");
const secret = "sfk_bench_abcomparisonsecret000001";

/** REF's bundle, built in a worktree of its own (removed afterwards) that shares node_modules. */
function baseBundle(ref: string): { entry: string; commit: string } {
  const commit = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
  }).trim();
  const tree = join(dir, "base-tree");
  const out = join(dir, "base");
  rmSync(tree, { recursive: true, force: true });
  execFileSync("git", ["worktree", "prune"], { cwd: PROJECT_ROOT });
  execFileSync("git", ["worktree", "add", "--detach", tree, commit], { cwd: PROJECT_ROOT, stdio: "ignore" });
  try {
    symlinkSync(join(PROJECT_ROOT, "node_modules"), join(tree, "node_modules"));
    return { entry: buildBundle(out, tree).entry, commit: commit.slice(0, 12) };
  } finally {
    rmSync(tree, { recursive: true, force: true });
    execFileSync("git", ["worktree", "prune"], { cwd: PROJECT_ROOT });
  }
}

/** Runs one child harness on a fresh copy of the seeded catalog; its JSON output. */
function runChild(script: string, input: Record<string, unknown>, seed: string): Record<string, unknown>[] {
  const file = join(dir, "run.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  copyFileSync(seed, file);
  const run = runHarness<Record<string, unknown>[]>(script, { ...input, sqliteFile: file });
  if ("failure" in run) throw new Error(`${script} failed ${run.failure}`);
  return run.output;
}

mkdirSync(dir, { recursive: true });
log(`machine speed: ${speedText(machineSpeed())}`);
const head = buildBundle(join(dir, "head"));
const base = baseBundle(values.base);
log(`bundles built: head (working tree) and base ${values.base} (${base.commit})`);

const { sqliteFile: migrated } = createState(join(dir, "state"));
const seed = join(dir, "seed.sqlite");
snapshot(migrated, seed);
await loadSeed(seed, scale, secret);
const { variantIds, refs } = readCatalog(seed);
const { updatedInternalIds: _, ...products } = productsPayload("ab", bulkBytes, refs);
const variants = variantsPayload(variantIds, bulkBytes);
const jobs = [
  { key: "products_upsert", path: "/api/v1/products/bulk", body: products.body },
  { key: "variants_update", path: "/api/v1/variants/bulk", body: variants.body },
].map((j) => {
  const bodyFile = join(dir, `${j.key}.json`);
  writeFileSync(bodyFile, j.body);
  return { key: j.key, path: j.path, bodyFile };
});
const exports = values["no-exports"]
  ? []
  : [
      { key: "products_export", path: "/api/v1/products/export", body: JSON.stringify({ format: "jsonl" }) },
      { key: "variants_export", path: "/api/v1/variants/export", body: JSON.stringify({ format: "csv" }) },
    ];

const samples: AbSample[] = [];
for (let round = 0; round < rounds; round++) {
  const sides = round % 2 === 0 ? (["head", "base"] as const) : (["base", "head"] as const);
  for (const side of sides) {
    const bundle = side === "head" ? head.entry : base.entry;
    const results = [
      ...runChild("bulk-inprocess.ts", { bundle, secret, jobs }, seed),
      ...(exports.length > 0
        ? runChild("export-inprocess.ts", { bundle, secret, exports, heap: false }, seed)
        : []),
    ];
    for (const r of results) {
      const sample = {
        side,
        round,
        key: String(r.key),
        wallMs: Number(r.wallMs),
        cpuMs: Number(r.cpuMs),
        status: String(r.status),
      };
      samples.push(sample);
      log(
        `round ${round + 1} ${side} ${sample.key}: ${sample.status}, ${sample.cpuMs.toFixed(0)} ms CPU, ${sample.wallMs.toFixed(0)} ms wall`,
      );
    }
  }
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");
const ratio = (r: { median: number; min: number; max: number }) =>
  Number.isFinite(r.median) ? `${r.median.toFixed(3)} (${r.min.toFixed(3)}–${r.max.toFixed(3)})` : "–";
const lines = [
  `Working tree against ${values.base} (${base.commit}), ${rounds} rounds at scale ${scale}, bulk bodies of ${values["bulk-mb"]} MB; machine at ${speedText(machineSpeed())} at the end.`,
  "",
  "| job | rounds | base CPU ms | head CPU ms | head ÷ base CPU, median (range) | head ÷ base wall | verdict |",
  "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
  ...summarizeAb(samples).map(
    (row) =>
      `| ${row.key} | ${row.rounds} | ${ms(row.base.cpuMs)} | ${ms(row.head.cpuMs)} | ${ratio(row.cpuRatio)} | ${ratio(row.wallRatio)} | ${row.verdict}${row.failed.length > 0 ? `; not done: ${row.failed.join(", ")}` : ""} |`,
  ),
];
writeFileSync(join(dir, "ab.md"), `${lines.join("\n")}\n`);
console.log(lines.join("\n"));
