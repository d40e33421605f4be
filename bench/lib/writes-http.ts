import { loadavg } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type BulkPayload, productsPayload, runBulk, variantsPayload } from "./bulk.ts";
import { bundleConfig } from "./bundle.ts";
import { readCatalog } from "./catalog-refs.ts";
import { createState, loadSeed, snapshot, tableCounts } from "./database.ts";
import { log } from "./log.ts";
import { startDevServer, stopDevServer } from "./server.ts";

/** One send of a feed over `wrangler dev`: first, re-sent unchanged, or with a tenth changed. */
interface HttpWritesRun {
  pass: "first" | "unchanged" | "changed_10pct";
  status: string;
  records: number;
  bytes: number;
  unchanged: number | null;
  rowsWritten: number | null;
  /** From the POST to the job's final status (polled every 100 ms). */
  wallMs: number;
  recordsPerSecond: number;
}

interface HttpWritesFeed {
  key: "variants_update" | "products_create";
  title: string;
  runs: HttpWritesRun[];
}

export interface HttpWrites {
  scale: number;
  products: number;
  variants: number;
  feeds: HttpWritesFeed[];
  /** The machine's 1-minute load average before the first send and after the last. */
  load?: [number, number];
}

/**
 * The issue's feeds end to end: a variants feed (stock and prices by id) and a products feed that
 * creates products (3 variants, 5 markets, 3 locales, brand, supplier, categories, images), each
 * of `bytes` (10 MB; smaller with --quick), POSTed to `wrangler dev` serving a seeded catalog:
 * first, re-sent unchanged, re-sent with every tenth record changed. Rows written are the job's
 * `writes` (D1's own count).
 */
export async function runHttpWrites(o: {
  bundle: string;
  workDir: string;
  secret: string;
  scale: number;
  bytes: number;
  errors: string[];
}): Promise<HttpWrites> {
  const dir = join(o.workDir, "writes-http");
  const persistTo = join(dir, "state");
  const { sqliteFile } = createState(persistTo);
  await loadSeed(sqliteFile, o.scale, o.secret);
  const counts = tableCounts(sqliteFile, ["products", "variants"]);
  const catalogFile = join(dir, "catalog.sqlite");
  snapshot(sqliteFile, catalogFile);
  const { variantIds, refs } = readCatalog(catalogFile);
  const config = bundleConfig({ entry: o.bundle }, join(dir, "wrangler.toml"));
  const server = await startDevServer({
    persistTo,
    config,
    secret: o.secret,
    logFile: join(dir, "wrangler.log"),
  });
  const runId = `w${Date.now().toString(36)}`;
  const variants = variantsPayload(variantIds, o.bytes);
  const products = productsPayload(runId, o.bytes, { ...refs, products: [] });
  const feeds: {
    key: HttpWritesFeed["key"];
    title: string;
    path: string;
    arrayKey: string;
    first: BulkPayload;
    change: (r: Record<string, unknown>) => void;
  }[] = [
    {
      key: "variants_update",
      title: "variants feed (stock, prices in 3 markets, by id)",
      path: "/api/v1/variants/bulk",
      arrayKey: "variants",
      first: variants,
      change: (r) => {
        r.warehouse_stock = (r.warehouse_stock as number) + 1;
      },
    },
    {
      key: "products_create",
      title: "products feed (first send creates; 3 variants × 5 markets, 3 locales, categories, images)",
      path: "/api/v1/products/bulk",
      arrayKey: "products",
      first: products,
      change: (r) => {
        r.model_code = `${r.model_code as string}-2`;
      },
    },
  ];
  const out: HttpWritesFeed[] = [];
  const loadBefore = loadavg()[0] ?? 0;
  try {
    for (const feed of feeds) {
      const changed = tenthChanged(feed.first, feed.arrayKey, feed.change);
      const runs: HttpWritesRun[] = [];
      for (const [pass, payload] of [
        ["first", feed.first],
        ["unchanged", feed.first],
        ["changed_10pct", changed],
      ] as const) {
        // A second apart: a row stamped in the same second by the previous send counts as changed.
        await sleep(1000);
        const run = await runBulk({
          origin: server.origin,
          path: feed.path,
          secret: o.secret,
          payload,
          timeoutMs: 30 * 60_000,
        });
        const writes = await jobWrites(server.origin, o.secret, run.jobId);
        const result: HttpWritesRun = {
          pass,
          status: run.status,
          records: payload.records,
          bytes: Buffer.byteLength(payload.body),
          unchanged: writes?.unchanged_records ?? null,
          rowsWritten: writes?.rows_written ?? null,
          wallMs: run.wallMs,
          recordsPerSecond: payload.records / (run.wallMs / 1000),
        };
        log(
          `writes http ${feed.key} ${pass}: ${run.status}, ${result.records} records, ${result.rowsWritten} rows written, ${Math.round(result.wallMs)} ms (${Math.round(result.recordsPerSecond)}/s)`,
        );
        if (run.status !== "done") o.errors.push(`writes http ${feed.key} ${pass}: job ended ${run.status}`);
        runs.push(result);
      }
      out.push({ key: feed.key, title: feed.title, runs });
    }
  } finally {
    await stopDevServer(server);
  }
  const load: [number, number] = [loadBefore, loadavg()[0] ?? 0];
  return { scale: o.scale, products: counts.products ?? 0, variants: counts.variants ?? 0, feeds: out, load };
}

/** The payload with every tenth record changed by `change` (the others as first sent). */
function tenthChanged(
  payload: BulkPayload,
  key: string,
  change: (r: Record<string, unknown>) => void,
): BulkPayload {
  const body = JSON.parse(payload.body) as Record<string, Record<string, unknown>[]>;
  (body[key] ?? []).forEach((r, i) => {
    if (i % 10 === 0) change(r);
  });
  return { ...payload, body: JSON.stringify(body) };
}

async function jobWrites(origin: string, secret: string, jobId: string) {
  const res = await fetch(`${origin}/api/v1/jobs/${jobId}?fields=writes`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  const job = (await res.json()) as { writes?: { unchanged_records: number; rows_written: number } };
  return job.writes;
}

/** Targets of the issue: rows and time of a re-send against the first send, records per second. */
export function httpWritesTargets(http: HttpWrites): string[] {
  const feed = (key: HttpWritesFeed["key"]) => http.feeds.find((f) => f.key === key);
  const run = (f: HttpWritesFeed | undefined, pass: HttpWritesRun["pass"]) =>
    f?.runs.find((r) => r.pass === pass);
  const mark = (ok: boolean) => (ok ? "✅" : "❌");
  const out: string[] = [];
  const mb = (r: HttpWritesRun | undefined) => ((r?.bytes ?? 0) / 1e6).toFixed(1);
  for (const [key, timeShare] of [
    ["variants_update", 1 / 3],
    ["products_create", 1 / 2],
  ] as const) {
    const f = feed(key);
    const first = run(f, "first");
    const same = run(f, "unchanged");
    const changed = run(f, "changed_10pct");
    if (!first || !same || !changed || !first.rowsWritten) continue;
    const rows = (r: HttpWritesRun) => (100 * (r.rowsWritten ?? 0)) / (first.rowsWritten as number);
    const time = same.wallMs / first.wallMs;
    out.push(
      `- ${key} (${mb(first)} MB, ${first.records} records): re-sent unchanged writes ${rows(same).toFixed(2)} % of the first send's rows (≤ 1 %) ${mark(rows(same) <= 1)} in ${(100 * time).toFixed(0)} % of its time (≤ ${(100 * timeShare).toFixed(0)} %) ${mark(time <= timeShare)}; 10 % changed writes ${rows(changed).toFixed(1)} % (≤ 15 %) ${mark(rows(changed) <= 15)}`,
    );
  }
  const variantsRate = run(feed("variants_update"), "first")?.recordsPerSecond ?? 0;
  const createsRate = run(feed("products_create"), "first")?.recordsPerSecond ?? 0;
  out.push(
    `- Scale ${http.scale}: variants updates ${Math.round(variantsRate).toLocaleString("en")}/s (≥ 30,000) ${mark(variantsRate >= 30_000)}; products creates ${Math.round(createsRate).toLocaleString("en")}/s (≥ 4,000) ${mark(createsRate >= 4_000)}, end to end`,
  );
  return out;
}
