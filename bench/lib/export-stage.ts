import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { runBulk } from "./bulk.ts";
import { openDb } from "./database.ts";
import { catalogRecordRows, pushBack, type RoundTrip } from "./export-round-trip.ts";
import { runHarness } from "./harness.ts";
import { log } from "./log.ts";
import type { JobMemory } from "./memory-probe.ts";

/**
 * Export jobs of the whole catalog (products as JSONL, variants as CSV): over wrangler dev from the
 * POST to the job's final status and the file downloaded (gzip), the products file pushed back
 * unchanged (bench/lib/export-round-trip.ts), and with the served bundle in Node
 * (bench/export-inprocess.ts): each message's time and peak heap, and the SQL floor, the statements
 * reading the pages replayed on node:sqlite.
 */
const EXPORTS = [
  { key: "products_jsonl", path: "/api/v1/products/export", body: { format: "jsonl" } },
  { key: "variants_csv", path: "/api/v1/variants/export", body: { format: "csv" } },
] as const;

interface HttpExport {
  key: string;
  status: string;
  records: number;
  /** POST until GET /api/v1/jobs/{id} shows it final (polled every 100 ms). */
  jobMs: number;
  /** GET /api/v1/jobs/{id}/result read to its end, gzip on the wire. */
  downloadMs: number;
  bytes: number;
  wireBytes: number;
}

interface InProcessExport {
  key: string;
  status: string;
  records: number;
  bytes: number;
  messages: number;
  wallMs: number;
  messageMs: { median: number; max: number };
  floorMs: number;
  floorStatements: number;
  memory: JobMemory;
}

export interface ExportStage {
  measuredAt: string;
  run?: string;
  products: number;
  variants: number;
  http: HttpExport[];
  inProcess: InProcessExport[];
  /** The products file pushed back unchanged over wrangler dev. */
  roundTrip?: RoundTrip;
}

/**
 * Over wrangler dev: each export from its POST to its file downloaded (into `workDir`), then the
 * products file pushed back unchanged.
 */
export async function runExportHttp(o: {
  origin: string;
  secret: string;
  workDir: string;
  sqliteFile: string;
  errors: string[];
}) {
  const out: HttpExport[] = [];
  let roundTrip: RoundTrip | undefined;
  for (const e of EXPORTS) {
    try {
      const job = await runBulk({
        origin: o.origin,
        path: e.path,
        secret: o.secret,
        payload: { body: JSON.stringify(e.body), records: 0, variants: 0, prices: 0 },
        timeoutMs: 30 * 60_000,
      });
      const started = performance.now();
      const res = await fetch(`${o.origin}/api/v1/jobs/${job.jobId}/result`, {
        headers: { authorization: `Bearer ${o.secret}`, "accept-encoding": "gzip" },
      });
      const wireBytes = Number(res.headers.get("content-length") ?? 0);
      let bytes = 0;
      const file = join(o.workDir, `export-${e.key}`);
      const saved = createWriteStream(file);
      const reader = res.body?.getReader();
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
        bytes += read.value.length;
        if (!saved.write(read.value))
          await new Promise<void>((resolve) => saved.once("drain", () => resolve()));
      }
      await new Promise<void>((resolve) => saved.end(() => resolve()));
      const downloadMs = performance.now() - started;
      out.push({
        key: e.key,
        status: job.status,
        records: job.summary.processed_records ?? 0,
        jobMs: job.wallMs,
        downloadMs,
        bytes,
        wireBytes,
      });
      log(
        `export ${e.key}: ${job.summary.processed_records} records in ${(job.wallMs / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB`,
      );
      if (e.key === "products_jsonl") {
        const firstImportRows = catalogRecordRows(o.sqliteFile);
        roundTrip = await pushBack({
          origin: o.origin,
          secret: o.secret,
          file,
          firstImportRows,
          errors: o.errors,
        });
      }
    } catch (error) {
      o.errors.push(`export ${e.key} over wrangler dev: ${error instanceof Error ? error.message : error}`);
    }
  }
  return { http: out, roundTrip };
}

/** In Node with the served bundle, on a pre-job copy of the catalog. */
export function runExportInProcess(o: {
  bundle: string;
  sqliteFile: string;
  secret: string;
  errors: string[];
}): InProcessExport[] {
  const input = {
    bundle: o.bundle,
    sqliteFile: o.sqliteFile,
    secret: o.secret,
    exports: EXPORTS.map((e) => ({ key: e.key, path: e.path, body: JSON.stringify(e.body) })),
  };
  const run = runHarness<InProcessExport[]>("export-inprocess.ts", input, { exposeGc: true });
  if ("failure" in run) {
    o.errors.push(`export in-process run failed ${run.failure}`);
    return [];
  }
  const runs = run.output;
  for (const r of runs)
    if (r.status !== "done") o.errors.push(`export ${r.key} in process ended ${r.status}`);
  return runs;
}

export function catalogSize(sqliteFile: string) {
  const db = openDb(sqliteFile, true);
  const count = (table: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const size = { products: count("products"), variants: count("variants") };
  db.close();
  return size;
}
