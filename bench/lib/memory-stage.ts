import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { productsPayload, variantsPayload } from "./bulk.ts";
import { openDb } from "./database.ts";
import { runHarness } from "./harness.ts";
import { log } from "./log.ts";
import type { JobMemory } from "./memory-probe.ts";

/**
 * The JS heap of the bulk path, measured with the served bundle in Node
 * (bench/bulk-inprocess.ts under --expose-gc, node:sqlite, in-memory R2 and queues): the peak per
 * chunk message above the heap left by a full GC, and the heap retained after each of N
 * consecutive 10 MB jobs (products upserts that create and variants updates, alternating), so
 * that growth from job to job would show. Node's V8 running the same bundle, not workerd:
 * workerd's per-isolate figures cannot be read from outside.
 */

/** The Workers isolate memory limit. */
export const ISOLATE_LIMIT_BYTES = 128 * 1024 * 1024;

interface MemoryJob {
  key: string;
  status: string;
  wallMs: number;
  messages: number;
  memory: JobMemory;
}

export interface MemoryStage {
  measuredAt: string;
  /** Set when the stage ran alone (`--only`) into the results of an earlier run. */
  run?: string;
  payloadBytes: Record<string, number>;
  jobs: MemoryJob[];
  /** Max over every job of the accept's and the chunk messages' peak above baseline. */
  acceptPeakMaxBytes: number;
  messagePeakMaxBytes: number;
  messagePeakMedianBytes: number;
  retained: { firstBytes: number; lastBytes: number; maxBytes: number; minBytes: number };
  /** Least-squares slope of the retained heap over the jobs, and over their second half. */
  slopeBytesPerJob: number;
  slopeSecondHalfBytesPerJob: number;
  seconds: number;
}

interface ChildJob {
  key: string;
  status: string;
  wallMs: number;
  messages: number;
  memory?: JobMemory;
}

/** Least-squares slope of `ys` over their indices. */
function slope(ys: number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = ys.reduce((a, y) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

export function runMemoryStage(o: {
  bundle: string;
  /** A pre-job copy of the catalog; the jobs write on it. */
  sqliteFile: string;
  secret: string;
  workDir: string;
  bulkBytes: number;
  jobs: number;
  errors: string[];
}): MemoryStage | undefined {
  const started = performance.now();
  const db = openDb(o.sqliteFile, true);
  const variantIds = (db.prepare("SELECT id FROM variants ORDER BY id").all() as { id: number }[]).map(
    (r) => r.id,
  );
  db.close();
  // The bench's generators; each products job creates products of its own (updating the same ones
  // again would measure the product-update SQL, not the heap).
  const write = (key: string, name: string, path: string, body: string) => {
    const bodyFile = join(o.workDir, `memory-${name}.json`);
    writeFileSync(bodyFile, body);
    return { key, path, bodyFile, bytes: Buffer.byteLength(body) };
  };
  const variants = write(
    "variants_update",
    "variants_update",
    "/api/v1/variants/bulk",
    variantsPayload(variantIds, o.bulkBytes).body,
  );
  const jobList = Array.from({ length: o.jobs }, (_, i) =>
    i % 2 === 1
      ? variants
      : write(
          "products_upsert",
          `products_upsert-${i}`,
          "/api/v1/products/bulk",
          productsPayload(`MEM${i}`, o.bulkBytes).body,
        ),
  );
  const payloads = [jobList[0], variants].filter((p) => p !== undefined);
  const input = {
    bundle: o.bundle,
    sqliteFile: o.sqliteFile,
    secret: o.secret,
    memory: true,
    jobs: jobList.map(({ key, path, bodyFile }) => ({ key, path, bodyFile })),
  };
  log(`memory: ${o.jobs} jobs in Node with --expose-gc (a full GC before every handler call)`);
  const run = runHarness<ChildJob[]>("bulk-inprocess.ts", input, { exposeGc: true });
  for (const j of new Set(jobList)) rmSync(j.bodyFile, { force: true });
  if ("failure" in run) {
    o.errors.push(`memory run failed ${run.failure}`);
    return undefined;
  }
  const jobs = run.output.map((j) => ({
    key: j.key,
    status: j.status,
    wallMs: j.wallMs,
    messages: j.messages,
    memory: j.memory as JobMemory,
  }));
  for (const [i, j] of jobs.entries()) {
    if (j.status !== "done") o.errors.push(`memory job ${i + 1} (${j.key}) ended ${j.status}`);
  }
  const retained = jobs.map((j) => j.memory.retainedBytes);
  const max = (xs: number[]) => xs.reduce((a, x) => Math.max(a, x), 0);
  const sortedMedians = jobs.map((j) => j.memory.messagePeakMedianBytes).sort((a, b) => a - b);
  const stage: MemoryStage = {
    measuredAt: new Date().toISOString(),
    payloadBytes: Object.fromEntries(payloads.map((p) => [p.key, p.bytes])),
    jobs,
    acceptPeakMaxBytes: max(jobs.map((j) => j.memory.acceptPeakBytes)),
    messagePeakMaxBytes: max(jobs.map((j) => j.memory.messagePeakBytes)),
    messagePeakMedianBytes: sortedMedians[Math.floor((sortedMedians.length - 1) / 2)] ?? 0,
    retained: {
      firstBytes: retained[0] ?? 0,
      lastBytes: retained.at(-1) ?? 0,
      maxBytes: max(retained),
      minBytes: retained.reduce((a, x) => Math.min(a, x), Number.POSITIVE_INFINITY),
    },
    slopeBytesPerJob: slope(retained),
    slopeSecondHalfBytesPerJob: slope(retained.slice(Math.floor(retained.length / 2))),
    seconds: (performance.now() - started) / 1000,
  };
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  log(
    `memory: peak per chunk ${mb(stage.messagePeakMaxBytes)} (median ${mb(stage.messagePeakMedianBytes)}), accept ${mb(stage.acceptPeakMaxBytes)}; retained after job 1 ${mb(stage.retained.firstBytes)}, after job ${jobs.length} ${mb(stage.retained.lastBytes)}, max ${mb(stage.retained.maxBytes)}, slope ${(stage.slopeBytesPerJob / 1024).toFixed(1)} KiB/job`,
  );
  return stage;
}
