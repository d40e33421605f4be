/**
 * Child process of the benchmark: serves each scenario with the very bundle `wrangler dev` served
 * (its `fetch` handler, imported in Node) over a recording D1 shim on a copy of the benchmark
 * database, and prints JSON: the statements and round trips of one hot request per scenario, and
 * the in-process time per request (the engine and node:sqlite, without workerd or HTTP: wall time and
 * the process's CPU time) with the
 * median time of each phase the responses report in `Server-Timing` (src/lib/phase-clock.ts).
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, budgetMs, scenarios: [{key, path}]}.
 */
import { PHASES } from "../src/lib/phase-clock.ts";
import { openDb } from "./lib/database.ts";
import { inProcessEnv, loadWorker } from "./lib/worker-env.ts";

interface Input {
  bundle: string;
  sqliteFile: string;
  secret: string;
  budgetMs: number;
  scenarios: { key: string; path: string }[];
}

const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const worker = await loadWorker(input.bundle);
const db = openDb(input.sqliteFile);
const { recorder, env, ctx, settle } = inProcessEnv(db);
const headers = { authorization: `Bearer ${input.secret}` };

const call = async (path: string) => {
  const res = await worker.fetch(new Request(`http://127.0.0.1${path}`, { headers }), env, ctx);
  const body = await res.arrayBuffer();
  await settle();
  return { status: res.status, bytes: body.byteLength, serverTiming: res.headers.get("server-timing") };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? null;

/** The phase entries of a `Server-Timing` header (`validate;dur=0.041`). */
function phaseTimes(header: string | null): [string, number][] {
  const out: [string, number][] = [];
  for (const entry of (header ?? "").split(",")) {
    const [name, dur] = entry.trim().split(";dur=");
    if ((PHASES as readonly string[]).includes(name ?? "") && dur) out.push([name as string, Number(dur)]);
  }
  return out;
}

const out = [];
for (const { key, path } of input.scenarios) {
  // Warm-up calls fill the isolate caches (API key, store settings) as on a hot isolate, and give
  // the JIT a quarter of the budget, so the median is not that of code still being compiled.
  const warmUp = performance.now();
  for (let i = 0; i < 2 || performance.now() - warmUp < input.budgetMs / 4; i++) await call(path);
  recorder.take();
  const first = await call(path);
  const trips = recorder.take();
  const times: number[] = [];
  // CPU time of the process per request (getrusage: this thread and V8's helper threads): unlike
  // wall time, it does not grow when other processes on the machine take the core.
  const cpuTimes: number[] = [];
  const phases = new Map<string, number[]>();
  const started = performance.now();
  while (performance.now() - started < input.budgetMs && times.length < 2000) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const { serverTiming } = await call(path);
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - t);
    cpuTimes.push((used.user + used.system) / 1000);
    for (const [name, ms] of phaseTimes(serverTiming)) phases.set(name, [...(phases.get(name) ?? []), ms]);
  }
  recorder.take();
  out.push({
    key,
    path,
    status: first.status,
    bytes: first.bytes,
    serverTiming: first.serverTiming,
    trips,
    inProcess: {
      iterations: times.length,
      medianMs: median(times),
      cpuMedianMs: median(cpuTimes),
      phases: Object.fromEntries([...phases].map(([name, values]) => [name, median(values)])),
    },
  });
}
db.close();
process.stdout.write(JSON.stringify(out));
