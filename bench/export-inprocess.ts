/**
 * Child process of the benchmark's export stage: runs export jobs with the served bundle in Node
 * (its `fetch` for the POST, its `queue` handler for each message, one at a time) over node:sqlite
 * and in-memory R2/queues, under --expose-gc: each export twice, first timed (each message's wall
 * time, and the SQL floor: the statements that read the export's pages, replayed on node:sqlite
 * once the job is done), then measured (a full GC before each message, its peak heap as the memory
 * stage measures it).
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, exports: [{key, path, body}], heap?}; with
 * `heap: false` each export runs once, timed only (bench/ab.ts).
 */

import { cpuNow } from "./lib/cpu-time.ts";
import type { CapturedStatement } from "./lib/d1-shim.ts";
import { openDb } from "./lib/database.ts";
import { memoryProbe } from "./lib/memory-probe.ts";
import { inProcessEnv, loadWorker } from "./lib/worker-env.ts";

interface Input {
  bundle: string;
  sqliteFile: string;
  secret: string;
  exports: { key: string; path: string; body: string }[];
  heap?: boolean;
}

const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const worker = await loadWorker(input.bundle);
const db = openDb(input.sqliteFile);
const { recorder, env, ctx, queued, settle } = inProcessEnv(db);

/** A statement that reads the catalog for the export (not the job's bookkeeping). */
const readsCatalog = (s: CapturedStatement) =>
  /^\s*SELECT/i.test(s.sql) &&
  !/\b(jobs|job_exports|job_logs|job_chunks|job_chunk_ranges|store|store_translations|api_keys)\b/.test(
    s.sql,
  );

/** One export from its POST to its last message; `probe` measures the heap of each message. */
async function runExport(job: Input["exports"][number], probe: ReturnType<typeof memoryProbe>) {
  const started = performance.now();
  const cpuStarted = cpuNow();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1${job.path}`, {
      method: "POST",
      body: job.body,
      headers: { authorization: `Bearer ${input.secret}`, "content-type": "application/json" },
    }),
    env,
    ctx,
  );
  const accepted = (await res.json()) as { job_id: string }[];
  await settle();
  recorder.take();
  const jobId = accepted[0]?.job_id ?? "";
  const messageMs: number[] = [];
  const catalogReads: CapturedStatement[] = [];
  while (queued.length > 0) {
    const message = queued.shift();
    probe.start();
    const messageStarted = performance.now();
    await worker.queue(
      {
        queue: "storefront-jobs",
        messages: [
          { id: String(messageMs.length), body: message, attempts: 1, ack: () => {}, retry: () => {} },
        ],
      },
      env,
      ctx,
    );
    await settle();
    messageMs.push(performance.now() - messageStarted);
    probe.end("message");
    for (const trip of recorder.take()) catalogReads.push(...trip.statements.filter(readsCatalog));
  }
  const wallMs = performance.now() - started;
  const cpuMs = cpuNow() - cpuStarted;
  const row = db.prepare("SELECT status, processed_records, chunk_count FROM jobs WHERE id = ?").get(jobId) as
    | { status: string; processed_records: number; chunk_count: number }
    | undefined;
  const file = await env.PAYLOADS.head(`jobs/${jobId}/result`);
  await env.PAYLOADS.delete(`jobs/${jobId}/result`);
  // The floor: the same statements, prepared afresh and run once each, in order.
  const floorStarted = performance.now();
  for (const s of catalogReads) db.prepare(s.sql).all(...s.params);
  const floorMs = performance.now() - floorStarted;
  const sorted = [...messageMs].sort((a, b) => a - b);
  return {
    key: job.key,
    status: row?.status ?? `HTTP ${res.status}`,
    records: row?.processed_records ?? 0,
    bytes: file?.size ?? 0,
    messages: messageMs.length,
    wallMs,
    cpuMs,
    messageMs: { median: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
    floorMs,
    floorStatements: catalogReads.length,
    memory: probe.jobEnd(),
  };
}

const out = [];
for (const job of input.exports) {
  const timed = await runExport(job, memoryProbe(false));
  if (input.heap === false) {
    out.push(timed);
    continue;
  }
  const measured = await runExport(job, memoryProbe(true));
  out.push({ ...timed, memory: measured.memory });
}
db.close();
process.stdout.write(JSON.stringify(out));
