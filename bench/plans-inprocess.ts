/**
 * Child process of the benchmark's `plans` stage (bench/lib/plans-stage.ts): bulk jobs run by the
 * served bundle in Node (its `fetch` for the POST, its `queue` handler for each chunk message, one
 * at a time) over node:sqlite, on a database that `npm run dev` would leave (demo seed, statistics
 * taken right after seeding), to measure what planner statistics do to bulk updates: a catalog
 * built by pushes and updated at once, with the statistics kept as the seed left them.
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, scenario}. Output: JSON of PlansCase[].
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { OPTIMIZE_SQL } from "../src/db/planner-statistics.ts";
import { cpuNow } from "./lib/cpu-time.ts";
import { openDb } from "./lib/database.ts";
import type { MatchReplay, PlansCase, PlansJob } from "./lib/plans-stage.ts";
import { inProcessEnv, loadWorker } from "./lib/worker-env.ts";

interface Input {
  bundle: string;
  sqliteFile: string;
  secret: string;
  scenario: "pushed" | "grown" | "seeded";
}

const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const worker = await loadWorker(input.bundle);
const db = openDb(input.sqliteFile);
const { env, ctx, queued, settle, recorder } = inProcessEnv(db);
const PUSH_RECORDS = 2000; // products per push job (one 10 MB body holds about 20,000 records)

/** The last variant match a job sent (its SQL and 2,000-key parameter), to replay. */
let lastMatch: { sql: string; params: SQLInputValue[] } | undefined;
/** CPU ms spent inside the D1 binding (node:sqlite running the statements), summed over the run. */
let sqlCpuMs = 0;
const timed =
  <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const t = cpuNow();
    try {
      return await f(...args);
    } finally {
      sqlCpuMs += cpuNow() - t;
    }
  };
{
  const d1 = env.DB as unknown as Record<string, (...args: unknown[]) => unknown>;
  const batch = d1.batch?.bind(d1) as (...s: unknown[]) => Promise<unknown>;
  d1.batch = timed(batch);
  const prepare = d1.prepare?.bind(d1) as (q: string) => object;
  const wrap = (statement: object): object =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...a: unknown[]) => wrap(value.apply(target, a));
        return ["all", "raw", "first", "run"].includes(String(prop))
          ? timed((...a: unknown[]) => value.apply(target, a))
          : value.bind(target);
      },
    });
  d1.prepare = (q: unknown) => wrap(prepare(q as string));
}

type StatRow = { tbl: string; idx: string | null; stat: string };
const seedStatistics = db.prepare("SELECT tbl, idx, stat FROM sqlite_stat1").all() as StatRow[];

/** Puts the seed's statistics back: the planner sees the catalog as `npm run dev` analyzed it. */
function keepSeedStatistics(database: DatabaseSync) {
  database.exec("DELETE FROM sqlite_stat1");
  const insert = database.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)");
  for (const r of seedStatistics) insert.run(r.tbl, r.idx, r.stat);
  database.exec("ANALYZE sqlite_schema");
}

/** POSTs one bulk body and delivers every chunk message, timing each (a message applies one chunk). */
async function runJob(path: string, body: unknown): Promise<Omit<PlansJob, "key" | "title">> {
  const started = performance.now();
  const cpuStarted = cpuNow();
  const sqlStarted = sqlCpuMs;
  const res = await worker.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${input.secret}`, "content-type": "application/json" },
    }),
    env,
    ctx,
  );
  const accepted = (await res.json()) as { job_id: string }[];
  await settle();
  const chunkMs: number[] = [];
  while (queued.length > 0) {
    const message = queued.shift();
    const t = performance.now();
    await worker.queue(
      {
        queue: "storefront-jobs",
        messages: [{ id: String(chunkMs.length), body: message, attempts: 1, ack() {}, retry() {} }],
      },
      env,
      ctx,
    );
    await settle();
    chunkMs.push(performance.now() - t);
  }
  const trips = recorder.take();
  lastMatch = trips.flatMap((t) => t.statements).find((st) => st.sql.includes("CROSS JOIN variants v"));
  const wallMs = performance.now() - started;
  const cpuMs = cpuNow() - cpuStarted;
  const row = db
    .prepare("SELECT status, succeeded_records AS ok, total_records AS total FROM jobs WHERE id = ?")
    .get(accepted[0]?.job_id ?? "") as { status: string; ok: number; total: number } | undefined;
  const sorted = [...chunkMs].sort((a, b) => a - b);
  return {
    status: res.status === 202 ? (row?.status ?? "missing") : `HTTP ${res.status}`,
    records: row?.total ?? 0,
    succeeded: row?.ok ?? 0,
    wallMs,
    recordsPerSecond: ((row?.ok ?? 0) / wallMs) * 1000,
    cpuMs,
    sqlCpuMs: sqlCpuMs - sqlStarted,
    recordsPerCpuSecond: ((row?.ok ?? 0) / cpuMs) * 1000,
    chunks: chunkMs.length,
    chunkMedianMs: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
    chunkMaxMs: sorted.at(-1) ?? 0,
  };
}

const products = (from: number, count: number, variantsEach: number) =>
  Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      internal_id: `PLAN-P-${n}`,
      translations: { "es-ES": { name: `Producto ${n}` }, "en-GB": { name: `Product ${n}` } },
      variants: Array.from({ length: variantsEach }, (_, v) => ({
        internal_id: `PLAN-V-${n}-${v}`,
        sku: `PLAN-S-${n}-${v}`,
        warehouse_stock: 1,
        prices: { market_es: { list_price: { amount: "19.90", currency: "EUR" } } },
      })),
    };
  });

/** Pushes `total` products in jobs of PUSH_RECORDS, keeping the seed's statistics after each when `stale`. */
async function push(total: number, variantsEach: number, stale: boolean): Promise<PlansJob> {
  const jobs: Omit<PlansJob, "key" | "title">[] = [];
  for (let from = 0; from < total; from += PUSH_RECORDS) {
    const body = { products: products(from, Math.min(PUSH_RECORDS, total - from), variantsEach) };
    jobs.push(await runJob("/api/v1/products/bulk", { ...body, options: { match_by: "internal_id" } }));
    if (stale) keepSeedStatistics(db);
  }
  const wallMs = jobs.reduce((s, j) => s + j.wallMs, 0);
  const cpuMs = jobs.reduce((s, j) => s + j.cpuMs, 0);
  const succeeded = jobs.reduce((s, j) => s + j.succeeded, 0);
  return {
    key: "push",
    title: `push ${total.toLocaleString("en")} new products × ${variantsEach} variants (${jobs.length} jobs)`,
    status: jobs.every((j) => j.status === "done") ? "done" : jobs.map((j) => j.status).join(","),
    records: jobs.reduce((s, j) => s + j.records, 0),
    succeeded,
    wallMs,
    recordsPerSecond: (succeeded / wallMs) * 1000,
    cpuMs,
    sqlCpuMs: jobs.reduce((s, j) => s + j.sqlCpuMs, 0),
    recordsPerCpuSecond: (succeeded / cpuMs) * 1000,
    chunks: jobs.reduce((s, j) => s + j.chunks, 0),
    chunkMedianMs: Math.max(...jobs.map((j) => j.chunkMedianMs)),
    chunkMaxMs: Math.max(...jobs.map((j) => j.chunkMaxMs)),
  };
}

/** Updates the stock of these variants by internal_id, at once. */
async function updateStock(key: string, title: string, internalIds: string[]): Promise<PlansJob> {
  const variants = internalIds.map((internal_id, i) => ({ internal_id, warehouse_stock: 10 + (i % 7) }));
  return {
    key,
    title,
    ...(await runJob("/api/v1/variants/bulk", { variants, options: { match_by: "internal_id" } })),
  };
}

const pushedIds = (prefix: string) =>
  (
    db.prepare("SELECT internal_id FROM variants WHERE internal_id LIKE ? ORDER BY id").all(`${prefix}%`) as {
      internal_id: string;
    }[]
  ).map((r) => r.internal_id);
const variantRows = () => (db.prepare("SELECT count(*) AS n FROM variants").get() as { n: number }).n;
const statsRows = () =>
  (
    db.prepare("SELECT max(CAST(stat AS INTEGER)) AS n FROM sqlite_stat1 WHERE tbl = 'variants'").get() as {
      n: number | null;
    }
  ).n;

/**
 * The last job's variant match as the service sent it (`CROSS JOIN`) and as it was written before (a
 * plain `JOIN`, which SQLite may reorder), replayed on node:sqlite with the seed's statistics.
 */
function replayMatch(maxKeys: number): MatchReplay | undefined {
  if (!lastMatch) return undefined;
  const { sql } = lastMatch;
  // The keys are the statement's one JSON array parameter: the first `maxKeys` of them.
  const params = lastMatch.params.map((p) =>
    typeof p === "string" && p.startsWith("[")
      ? JSON.stringify((JSON.parse(p) as unknown[]).slice(0, maxKeys))
      : p,
  );
  const keys = (
    JSON.parse(String(params.find((p) => typeof p === "string" && p.startsWith("[")))) as unknown[]
  ).length;
  keepSeedStatistics(db);
  const time = (text: string) => {
    const t = cpuNow();
    const rows = db.prepare(text).all(...params).length;
    return { ms: cpuNow() - t, rows };
  };
  const stated = time(sql);
  const plain = time(sql.replace("CROSS JOIN variants v", "JOIN variants v"));
  return { keys, statedMs: stated.ms, plainJoinMs: plain.ms, rows: stated.rows };
}

const out: PlansCase[] = [];
if (input.scenario === "pushed") {
  // Issue scenario: 2,000 products × 2 variants pushed, then their 4,000 variants' stock at once.
  const pushJob = await push(2000, 2, true);
  const statistics = statsRows();
  const ids = pushedIds("PLAN-V-");
  const stale = await updateStock(
    "update_stale",
    "update 4,000 variants' stock by internal_id, seed statistics kept",
    ids,
  );
  const replay = replayMatch(2000);
  const catalogVariants = variantRows();
  out.push({
    key: "pushed_stale",
    catalogVariants,
    statisticsVariants: statistics,
    replay,
    jobs: [pushJob, stale],
  });
  db.exec(OPTIMIZE_SQL);
  const fresh = await updateStock("update_fresh", "the same update after PRAGMA optimize", ids);
  out.push({ key: "pushed_fresh", catalogVariants, statisticsVariants: catalogVariants, jobs: [fresh] });
} else if (input.scenario === "grown") {
  // Grown by pushes from the demo seed to 20,000 products and 60,000 variants, never analyzed again.
  const pushJob = await push(19960, 3, true);
  const statistics = statsRows();
  const update = await updateStock(
    "update_all",
    "update every pushed variant's stock by internal_id, seed statistics kept",
    pushedIds("PLAN-V-"),
  );
  // Leaves the seed's statistics in place: the stage then times a job-end refresh with work to do.
  const replay = replayMatch(200);
  out.push({
    key: "grown_stale",
    catalogVariants: variantRows(),
    statisticsVariants: statistics,
    replay,
    jobs: [pushJob, update],
  });
} else {
  const ids = (
    db
      .prepare("SELECT internal_id FROM variants WHERE internal_id IS NOT NULL ORDER BY id LIMIT 4000")
      .all() as {
      internal_id: string;
    }[]
  ).map((r) => r.internal_id);
  const statistics = statsRows();
  const title = `update ${ids.length.toLocaleString("en")} seeded variants' stock by internal_id, statistics fresh`;
  const update = await updateStock("update_seeded", title, ids);
  out.push({
    key: "seeded_fresh",
    catalogVariants: variantRows(),
    statisticsVariants: statistics,
    jobs: [update],
  });
}
db.close();
process.stdout.write(JSON.stringify(out));
