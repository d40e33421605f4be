/**
 * Child process of the benchmark: runs the same bulk jobs with the served bundle in Node (its
 * `fetch` for the POST, its `queue` handler for every chunk message, delivered one at a time as the
 * local queue does with max_batch_size 1), over node:sqlite and in-memory R2/queues, on a pre-job
 * copy of the database. Separates the engine's own cost from wrangler dev's queue and D1 transport.
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, jobs: [{key, path, bodyFile}], memory?}.
 * With `memory` (and node --expose-gc) each job also reports its heap figures (lib/memory-probe.ts).
 */
import { readFileSync } from "node:fs";
import { cpuNow } from "./lib/cpu-time.ts";
import { openDb } from "./lib/database.ts";
import { memoryProbe } from "./lib/memory-probe.ts";
import { inProcessEnv, loadWorker } from "./lib/worker-env.ts";

interface Input {
  bundle: string;
  sqliteFile: string;
  secret: string;
  jobs: { key: string; path: string; bodyFile: string }[];
  memory?: boolean;
}

const MAX_ATTEMPTS = 6;

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}
const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const worker = await loadWorker(input.bundle);
const db = openDb(input.sqliteFile);
const { recorder, env, ctx, queued, settle } = inProcessEnv(db);
const probe = memoryProbe(input.memory ?? false);

const out = [];
for (const job of input.jobs) {
  let body: string | undefined = readFileSync(job.bodyFile, "utf8");
  const started = performance.now();
  const cpuStarted = cpuNow();
  probe.start();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1${job.path}`, {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${input.secret}`, "content-type": "application/json" },
    }),
    env,
    ctx,
  );
  const accepted = (await res.json()) as { job_id: string }[];
  await settle();
  probe.end("accept");
  body = undefined;
  const acceptMs = performance.now() - started;
  recorder.take();
  let messages = 0;
  let d1Calls = 0;
  const messageMs: number[] = [];
  const retries: { message: unknown; attempts: number }[] = [];
  while (queued.length > 0 || retries.length > 0) {
    const { message, attempts } =
      queued.length > 0
        ? { message: queued.shift(), attempts: 1 }
        : (retries.shift() as (typeof retries)[number]);
    const messageStarted = performance.now();
    probe.start();
    await worker.queue(
      {
        queue: "storefront-jobs",
        messages: [
          {
            id: String(messages),
            body: message,
            attempts,
            ack: () => {},
            retry: () => {
              if (attempts < MAX_ATTEMPTS) retries.push({ message, attempts: attempts + 1 });
            },
          },
        ],
      },
      env,
      ctx,
    );
    await settle();
    messageMs.push(performance.now() - messageStarted);
    probe.end("message");
    messages++;
    d1Calls += recorder.take().length;
  }
  const row = db
    .prepare("SELECT status, succeeded_records, failed_records, payload_key FROM jobs WHERE id = ?")
    .get(accepted[0]?.job_id ?? "") as
    | { status: string; succeeded_records: number; failed_records: number; payload_key: string }
    | undefined;
  // The fake R2 lives in this process, Cloudflare's does not: the payload goes before the heap is read.
  if (probe.enabled && row) await env.PAYLOADS.delete(row.payload_key);
  out.push({
    key: job.key,
    status: res.status === 202 ? (row?.status ?? "missing") : `HTTP ${res.status}`,
    acceptMs,
    wallMs: performance.now() - started,
    cpuMs: cpuNow() - cpuStarted,
    messages,
    d1CallsPerMessage: messages > 0 ? d1Calls / messages : 0,
    messageMs: summary(messageMs),
    succeeded: row?.succeeded_records ?? 0,
    failed: row?.failed_records ?? 0,
    memory: probe.jobEnd(),
  });
}
db.close();
process.stdout.write(JSON.stringify(out));
