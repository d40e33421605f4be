/**
 * Child process of the benchmark: serves each scenario with the very bundle `wrangler dev` served
 * (its `fetch` handler, imported in Node) over a recording D1 shim on a copy of the benchmark
 * database, and prints JSON: the statements and round trips of one hot request per scenario, and
 * the in-process time per request (the engine and node:sqlite, without workerd or HTTP).
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, budgetMs, scenarios: [{key, path}]}.
 */
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

const out = [];
for (const { key, path } of input.scenarios) {
  // Two warm-up calls fill the isolate caches (API key, store settings) as on a hot isolate.
  await call(path);
  await call(path);
  recorder.take();
  const first = await call(path);
  const trips = recorder.take();
  const times: number[] = [];
  const started = performance.now();
  while (performance.now() - started < input.budgetMs && times.length < 2000) {
    const t = performance.now();
    await call(path);
    times.push(performance.now() - t);
  }
  recorder.take();
  times.sort((a, b) => a - b);
  out.push({
    key,
    path,
    status: first.status,
    bytes: first.bytes,
    serverTiming: first.serverTiming,
    trips,
    inProcess: { iterations: times.length, medianMs: times[Math.floor(times.length / 2)] ?? null },
  });
}
db.close();
process.stdout.write(JSON.stringify(out));
