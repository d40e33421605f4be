import { join } from "node:path";
import { createState, loadSeed, snapshot, tableCounts } from "./database.ts";
import { runHarness } from "./harness.ts";
import { log } from "./log.ts";
import { type HttpWrites, httpWritesTargets, runHttpWrites } from "./writes-http.ts";

/** One send of a feed: first, re-sent unchanged, or re-sent with a tenth of its records changed. */
export interface WritesRun {
  pass: "first" | "unchanged" | "changed_10pct";
  status: string;
  records: number;
  succeeded: number;
  /** The job's `writes` (null with a bundle that has none). */
  unchanged: number | null;
  rowsWritten: number | null;
  /** Rows the statements on catalog tables wrote, summed per statement (equal to `rowsWritten`). */
  catalogRows: number;
  /** Change feed entries written (absent with a bundle that has no feed). */
  feedRows?: number;
  wallMs: number;
  cpuMs: number;
  /** CPU time inside node:sqlite (the statements). */
  sqlCpuMs: number;
  /** SQL time of the statements on catalog tables, each its fastest of several rolled-back runs. */
  writeSqlMs?: number;
  /** The same over the whole batches of the job's chunks (their bookkeeping too). */
  batchSqlMs?: number;
  recordsPerSecond: number;
  recordsPerCpuSecond: number;
}

export interface WritesFeed {
  key: string;
  title: string;
  runs: WritesRun[];
}

interface WritesCatalog {
  scale: number;
  products: number;
  variants: number;
  feeds: WritesFeed[];
}

export interface WritesStage {
  run: string;
  catalogs: WritesCatalog[];
  /** The 10 MB feeds over `wrangler dev` on the scale-300 catalog (smaller with --quick). */
  http?: HttpWrites;
}

/** D1's price per written row beyond the included 50 million a month (Workers Paid). */
const DOLLARS_PER_MILLION_ROWS = 1.0;

/**
 * Rows written per record and records per second of four bulk feeds, each sent first, re-sent
 * unchanged and re-sent with a tenth changed, on seeded catalogs of two sizes. Runs the served
 * bundle in Node over node:sqlite (bench/writes-inprocess.ts), as the plans stage does.
 */
export async function runWritesStage(o: {
  bundle: string;
  workDir: string;
  secret: string;
  quick: boolean;
  errors: string[];
}): Promise<WritesStage> {
  const dir = join(o.workDir, "writes");
  const { sqliteFile: migrated } = createState(join(dir, "state"));
  const catalogs: WritesCatalog[] = [];
  const scales = o.quick ? [2] : [10, 100];
  for (const scale of scales) {
    const file = join(dir, `scale-${scale}.sqlite`);
    snapshot(migrated, file);
    await loadSeed(file, scale, o.secret);
    const counts = tableCounts(file, ["products", "variants"]);
    const input = {
      bundle: o.bundle,
      sqliteFile: file,
      secret: o.secret,
      records: o.quick ? 50 : 1000,
      replays: o.quick ? 2 : 5,
    };
    const run = runHarness<WritesFeed[]>("writes-inprocess.ts", input, { maxBufferMb: 16 });
    if ("failure" in run) {
      o.errors.push(`writes scale ${scale} failed ${run.failure}`);
      continue;
    }
    const feeds = run.output;
    for (const f of feeds) {
      for (const r of f.runs) {
        log(
          `writes scale ${scale} ${f.key} ${r.pass}: ${r.status}, ${r.records} records, ${r.rowsWritten} rows written, ${Math.round(r.recordsPerSecond)}/s`,
        );
        if (r.status !== "done")
          o.errors.push(`writes scale ${scale} ${f.key} ${r.pass}: job ended ${r.status}`);
      }
    }
    catalogs.push({ scale, products: counts.products ?? 0, variants: counts.variants ?? 0, feeds });
  }
  const http = await runHttpWrites({
    bundle: o.bundle,
    workDir: dir,
    secret: o.secret,
    scale: o.quick ? 0.5 : 300,
    bytes: o.quick ? 250_000 : 10_000_000,
    errors: o.errors,
  }).catch((err: unknown) => {
    o.errors.push(`writes http failed: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  });
  return { run: "in process (the served bundle over node:sqlite)", catalogs, ...(http ? { http } : {}) };
}

const PASS_TITLES: Record<WritesRun["pass"], string> = {
  first: "first sent",
  unchanged: "re-sent unchanged",
  changed_10pct: "re-sent, 10 % changed",
};

const sqlMs = (r: WritesRun) =>
  r.writeSqlMs === undefined ? "–" : `${r.writeSqlMs.toFixed(1)} / ${(r.batchSqlMs ?? 0).toFixed(1)}`;

/** The stage's section of bench/RESULTS.md. */
export function writesSection(stage: WritesStage | undefined): string[] {
  if (!stage) return [];
  const out = [
    "## Rows written by bulk feeds",
    "",
    `Run: ${stage.run}. Each feed is sent three times on a seeded catalog: first (every record new or changed), re-sent unchanged, re-sent with every tenth record changed. Rows written are D1's count (each row and index entry a statement writes; node:sqlite has none, so the model of src/async/bulk/write-cost.ts, which the tests check against D1's own figures, counts them); $ per million records at D1's $${DOLLARS_PER_MILLION_ROWS.toFixed(2)} per million rows written. Records/s: wall time of the job end to end (POST, every chunk message) in one Node process on a shared machine. SQL ms: each batch of the job that writes the catalog, or checks which rows its writes would change (the SELECTs a real run sends before them, src/async/bulk/change-checks.ts), run again on the state it runs on and rolled back, several times; the fastest run of each statement, summed over the catalog writes with their checks and over the whole batches (their bookkeeping too): what the statements cost in SQLite without the Worker's planning. Change feed rows: the entries the job's chunks added to \`GET /api/v1/changes\` (one written row each, not in rows written): at most one per product, variant or price list the send changed.`,
    "",
  ];
  for (const c of stage.catalogs) {
    out.push(
      `### Scale ${c.scale} (${c.products.toLocaleString("en")} products, ${c.variants.toLocaleString("en")} variants)`,
      "",
      "| feed | send | records | unchanged | rows written | rows per record | change feed rows | $ per million records | records/s | records per CPU s | SQL ms: writes / batch |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const f of c.feeds) {
      const first = f.runs.find((r) => r.pass === "first")?.rowsWritten ?? null;
      for (const r of f.runs) {
        const perRecord = r.rowsWritten === null || r.records === 0 ? null : r.rowsWritten / r.records;
        const share =
          first && r.rowsWritten !== null && r.pass !== "first"
            ? ` (${((100 * r.rowsWritten) / first).toFixed(1)} % of first)`
            : "";
        out.push(
          `| ${f.title} | ${PASS_TITLES[r.pass]} | ${r.records} | ${r.unchanged ?? "–"} | ${r.rowsWritten ?? "–"}${share} | ${perRecord === null ? "–" : perRecord.toFixed(2)} | ${r.feedRows ?? "–"} | ${perRecord === null ? "–" : (perRecord * DOLLARS_PER_MILLION_ROWS).toFixed(2)} | ${Math.round(r.recordsPerSecond)} | ${Math.round(r.recordsPerCpuSecond)} | ${sqlMs(r)} |`,
        );
      }
    }
    out.push("");
  }
  return [...out, ...httpSection(stage.http)];
}

function httpSection(http: HttpWrites | undefined): string[] {
  if (!http) return [];
  const out = [
    `### End to end over \`wrangler dev\`, scale ${http.scale} (${http.products.toLocaleString("en")} products, ${http.variants.toLocaleString("en")} variants)`,
    "",
    `Each feed POSTed to \`wrangler dev\` (local D1, queue and R2) and followed to its final status (polled every 100 ms); rows written are the job's \`writes.rows_written\` (D1's own count). Wall time includes the accept and the local queue's deliveries.${http.load ? ` Load average ${http.load[0].toFixed(1)} before the first send, ${http.load[1].toFixed(1)} after the last (2 cores, shared): times stretch with it.` : ""}`,
    "",
    "| feed | send | records | MB | unchanged | rows written | wall s | records/s |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const f of http.feeds) {
    const first = f.runs.find((r) => r.pass === "first");
    for (const r of f.runs) {
      const share = (value: number | null, of: number | null | undefined) =>
        r.pass !== "first" && value !== null && of ? ` (${((100 * value) / of).toFixed(1)} % of first)` : "";
      out.push(
        `| ${f.title} | ${PASS_TITLES[r.pass]} | ${r.records} | ${(r.bytes / 1e6).toFixed(1)} | ${r.unchanged ?? "–"} | ${r.rowsWritten ?? "–"}${share(r.rowsWritten, first?.rowsWritten)} | ${(r.wallMs / 1000).toFixed(2)}${share(r.wallMs, first?.wallMs)} | ${Math.round(r.recordsPerSecond)} |`,
      );
    }
  }
  return [...out, "", ...httpWritesTargets(http), ""];
}
