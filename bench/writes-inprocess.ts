/**
 * Child process of the benchmark's `writes` stage (bench/lib/writes-stage.ts): bulk feeds run by the
 * served bundle in Node (its `fetch` for the POST, its `queue` handler for each chunk message) over
 * node:sqlite on a seeded catalog, each sent three times: first (every record new or changed),
 * re-sent unchanged, re-sent with every tenth record changed. node:sqlite counts no rows written:
 * the D1 stand-in (lib/d1-shim.ts) reports what src/async/bulk/write-cost.ts derives from each
 * statement's changed rows, the model the tests check against D1's own figures.
 *
 * Input: one JSON argument {bundle, sqliteFile, secret, records}. Output: JSON of WritesFeed[].
 */
import { appendFileSync } from "node:fs";
import { cpuNow } from "./lib/cpu-time.ts";
import { openDb, statementCache } from "./lib/database.ts";
import { inProcessEnv, loadWorker } from "./lib/worker-env.ts";
import type { WritesFeed, WritesRun } from "./lib/writes-stage.ts";

interface Input {
  bundle: string;
  sqliteFile: string;
  secret: string;
  /** Records per feed (fewer when the catalog has fewer). */
  records: number;
  /** Times each batch with catalog writes is replayed (rolled back) before it runs: its SQL time. */
  replays: number;
  /** Where to write each replayed statement's SQL and fastest time (diagnosis), if anywhere. */
  statementsFile?: string;
}

const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const worker = await loadWorker(input.bundle);
const db = openDb(input.sqliteFile);
const { env, ctx, queued, settle, recorder } = inProcessEnv(db);
/**
 * Rows written by statements on catalog tables (what `writes.rows_written` counts), summed from the
 * D1 stand-in's results: the same figure for a bundle older than the `writes` field. And the CPU
 * time inside the stand-in (node:sqlite running the statements).
 */
let catalogRows = 0;
/** Change feed entries the job's batches wrote (one row each: the feed has no secondary index). */
let feedRows = 0;
const FEED = /^insert into "?change_feed"?/i;
let sqlCpuMs = 0;
let replayMs = 0;
let batchReplayMs = 0;
const CATALOG =
  /^(INSERT INTO|UPDATE|DELETE FROM) "?(products|product_\w+|variants|variant_\w+|price_list_variant_prices)"?\s/;
/** A change check run before a real run's writes (src/async/bulk/change-checks.ts): part of their SQL time. */
const CHECK = /^SELECT json_extract\((j|o)\.value, '\$\[\d+\]'\) AS tag\b|^SELECT k\.tag AS tag FROM/;
const timed = (sql: string) => CATALOG.test(sql) || CHECK.test(sql);
const prepared = statementCache(db);

/**
 * The SQL time of a batch: the whole batch run `input.replays` times on the state it is about to
 * run on, each time rolled back, every statement timed; the fastest run of each statement, summed
 * over the statements on catalog tables (what a chunk's writes cost in SQLite, without the
 * Worker's planning) and over the whole batch (its bookkeeping too).
 */
function replay(statements: { sql: string; params: unknown[] }[]) {
  const fastest = statements.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < input.replays; run++) {
    db.exec("SAVEPOINT replay");
    try {
      statements.forEach((s, i) => {
        const started = performance.now();
        prepared(s.sql).run(...(s.params as never[]));
        fastest[i] = Math.min(fastest[i] as number, performance.now() - started);
      });
    } finally {
      db.exec("ROLLBACK TO replay");
      db.exec("RELEASE replay");
    }
  }
  let catalog = 0;
  let batch = 0;
  statements.forEach((s, i) => {
    const ms = fastest[i] as number;
    batch += ms;
    if (!timed(s.sql)) return;
    catalog += ms;
    if (input.statementsFile)
      appendFileSync(input.statementsFile, `${ms.toFixed(3)}\t${s.sql}\t${JSON.stringify(s.params)}\n`);
  });
  return { catalog, batch };
}
{
  const d1 = env.DB as unknown as {
    batch: (s: { sql: string }[]) => Promise<{ meta: { rows_written: number } }[]>;
  };
  const batch = d1.batch.bind(d1);
  d1.batch = async (statements) => {
    if (input.replays > 0 && statements.some((s) => timed(s.sql))) {
      const ms = replay(statements as unknown as { sql: string; params: unknown[] }[]);
      replayMs += ms.catalog;
      batchReplayMs += ms.batch;
    }
    const t = cpuNow();
    try {
      const results = await batch(statements);
      results.forEach((r, i) => {
        if (CATALOG.test(statements[i]?.sql ?? "")) catalogRows += r.meta.rows_written;
        if (FEED.test(statements[i]?.sql ?? "")) feedRows += (r.meta as { changes?: number }).changes ?? 0;
      });
      return results;
    } finally {
      sqlCpuMs += cpuNow() - t;
    }
  };
}
/** Whether the jobs table has the `writes` columns (a bundle older than them runs on it too). */
const hasWrites =
  (
    db.prepare("SELECT count(*) AS n FROM pragma_table_info('jobs') WHERE name = 'rows_written'").get() as {
      n: number;
    }
  ).n > 0;

async function runJob(path: string, body: unknown): Promise<Omit<WritesRun, "pass">> {
  // A second apart from the previous send, as feeds are: a row stamped in the same second by the
  // previous send would count its record as changed (src/async/bulk/unchanged.ts).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const started = performance.now();
  const cpuStarted = cpuNow();
  const rowsStarted = catalogRows;
  const feedStarted = feedRows;
  const sqlStarted = sqlCpuMs;
  const replayStarted = replayMs;
  const batchReplayStarted = batchReplayMs;
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
  let messages = 0;
  while (queued.length > 0) {
    const message = queued.shift();
    await worker.queue(
      {
        queue: "storefront-jobs",
        messages: [{ id: String(messages++), body: message, attempts: 1, ack() {}, retry() {} }],
      },
      env,
      ctx,
    );
    await settle();
  }
  recorder.take();
  const wallMs = performance.now() - started;
  const cpuMs = cpuNow() - cpuStarted;
  const row = db
    .prepare(
      `SELECT status, succeeded_records AS ok, total_records AS total${hasWrites ? ", rows_written AS rows, unchanged_records AS unchanged" : ""} FROM jobs WHERE id = ?`,
    )
    .get(accepted[0]?.job_id ?? "") as
    | { status: string; ok: number; total: number; rows?: number; unchanged?: number }
    | undefined;
  const records = row?.total ?? 0;
  return {
    status: res.status === 202 ? (row?.status ?? "missing") : `HTTP ${res.status}`,
    records,
    succeeded: row?.ok ?? 0,
    unchanged: row?.unchanged ?? null,
    rowsWritten: row?.rows ?? null,
    catalogRows: catalogRows - rowsStarted,
    feedRows: feedRows - feedStarted,
    wallMs,
    cpuMs,
    sqlCpuMs: sqlCpuMs - sqlStarted,
    writeSqlMs: replayMs - replayStarted,
    batchSqlMs: batchReplayMs - batchReplayStarted,
    recordsPerSecond: records / (wallMs / 1000),
    recordsPerCpuSecond: records / (cpuMs / 1000),
  };
}

const ids = (sql: string, n: number) => (db.prepare(sql).all(n) as { id: number }[]).map((r) => r.id);
const eur = (amount: string) => ({ amount, currency: "EUR" });
/** Every tenth record changed by `change`, the others as first sent. */
const tenth = <T>(records: T[], change: (r: T, i: number) => T) =>
  records.map((r, i) => (i % 10 === 0 ? change(r, i) : r));

const categories = ids("SELECT id FROM categories ORDER BY id LIMIT ?", 3);
const supplier = ids("SELECT id FROM suppliers ORDER BY id LIMIT ?", 1)[0];
const priceList = ids("SELECT id FROM price_lists ORDER BY id LIMIT ?", 1)[0];
const n = input.records;

/** A new product as an integrator's feed sends it: 2 variants, 3 locales, 3 markets, 2 images, 2 categories. */
const newProduct = (i: number) => ({
  internal_id: `WR-${i}`,
  product_structure: "with-variants",
  status: "published",
  supplier_id: supplier,
  category_ids: categories.slice(0, 2),
  images: [{ url: `https://img.example/wr-${i}-a.jpg` }, { url: `https://img.example/wr-${i}-b.jpg` }],
  translations: Object.fromEntries(
    ["es-ES", "en-GB", "fr-FR"].map((l) => [l, { name: `Writes ${l} ${i}`, description: `Feed item ${i}` }]),
  ),
  variants: ["A", "B"].map((size) => ({
    internal_id: `WR-${i}-${size}`,
    sku: `WR-${i}-${size}`,
    warehouse_stock: 10,
    prices: {
      market_es: { list_price: eur("19.90") },
      market_fr: { list_price: eur("19.90") },
      market_de: { list_price: eur("21.50") },
    },
    translations: { "es-ES": { name: `Talla ${size}` }, "en-GB": { name: `Size ${size}` } },
  })),
});
const creates = Array.from({ length: n }, (_, i) => newProduct(i));

const existing = ids("SELECT id FROM products WHERE internal_id NOT LIKE 'WR-%' ORDER BY id LIMIT ?", n);
const productUpdates = existing.map((id) => ({
  id,
  model_code: `WR-MC-${id}`,
  category_ids: categories.slice(1, 3),
  translations: { "es-ES": { description: `Updated ${id}` } },
}));

const variantIds = ids("SELECT id FROM variants ORDER BY id LIMIT ?", n);
const variantUpdates = variantIds.map((id) => ({
  id,
  warehouse_stock: 1000 + (id % 97),
  supplier_stock: 7,
  prices: { market_es: { list_price: eur(`${30 + (id % 50)}.00`), offer_price: null } },
}));

const prices = variantIds.map((id) => ({
  variant_id: id,
  price: { amount: `${12 + (id % 40)}.50`, currency_code: "EUR" },
  minimum_quantity: 2,
}));

const feeds: {
  key: string;
  title: string;
  path: string;
  body: (records: unknown[]) => unknown;
  records: unknown[];
  changed: unknown[];
}[] = [
  {
    key: "products_create",
    title: "products created (first send creates them)",
    path: "/api/v1/products/bulk",
    body: (records) => ({ products: records, options: { match_by: "internal_id" } }),
    records: creates,
    changed: tenth(creates, (p) => ({
      ...p,
      variants: p.variants.map((v) => ({ ...v, warehouse_stock: 11 })),
    })),
  },
  {
    key: "products_update",
    title: "products updated (model code, categories, a description)",
    path: "/api/v1/products/bulk",
    body: (records) => ({ products: records, options: { match_by: "id" } }),
    records: productUpdates,
    changed: tenth(productUpdates, (p) => ({ ...p, model_code: `${p.model_code}-2` })),
  },
  {
    key: "variants_update",
    title: "variants updated (stock, a market's price)",
    path: "/api/v1/variants/bulk",
    body: (records) => ({ variants: records, options: { match_by: "id" } }),
    records: variantUpdates,
    changed: tenth(variantUpdates, (v) => ({ ...v, warehouse_stock: v.warehouse_stock + 1 })),
  },
  {
    key: "price_list_prices",
    title: "price-list prices (upsert)",
    path: `/api/v1/price-lists/${priceList}/variant-prices/bulk`,
    body: (records) => ({ prices: records, options: { match_by: "variant_id", mode: "upsert" } }),
    records: prices,
    changed: tenth(prices, (p) => ({ ...p, minimum_quantity: 3 })),
  },
];

const out: WritesFeed[] = [];
for (const feed of feeds) {
  const runs: WritesRun[] = [];
  const passes = [
    ["first", feed.records],
    ["unchanged", feed.records],
    ["changed_10pct", feed.changed],
  ] as const;
  for (const [pass, records] of passes) {
    if (input.statementsFile) appendFileSync(input.statementsFile, `# ${feed.key} ${pass}\n`);
    runs.push({ pass, ...(await runJob(feed.path, feed.body(records))) });
  }
  out.push({ key: feed.key, title: feed.title, runs });
}
db.close();
process.stdout.write(JSON.stringify(out));
