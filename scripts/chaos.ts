/**
 * npm run chaos [-- --records N] [-- --products M] [-- --timeout S]
 *
 * Crash test of the job pipeline: starts `npm run dev` (scripts/dev.ts) on a free loopback port
 * over a state directory of its own, posts a large variants update and a products create, kills the
 * whole dev process group with SIGKILL while they run, restarts it on the same state, and checks
 * that both jobs finish by themselves: every record applied exactly once (the last record in
 * payload order wins; one product per internal_id), within the time limit. Prints a JSON summary;
 * exits 1 when a check fails. Talks only to 127.0.0.1 and stops only the process group it started.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { freePort, startWranglerDev, stopProcessGroup } from "./lib/dev-process.ts";
import { d1Query, useLocalState } from "./lib/wrangler.ts";

const KEY = "sfk_local_development_key";
const FINAL = ["done", "done_with_errors", "failed"];

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "20000" },
    products: { type: "string", default: "3000" },
    timeout: { type: "string", default: "150" },
  },
});
const RECORDS = Number(values.records);
const PRODUCTS = Number(values.products);
const RECOVERY_LIMIT_MS = Number(values.timeout) * 1000;

const state = mkdtempSync(join(tmpdir(), "storefront-chaos-"));
const logFile = join(state, "dev.log");
useLocalState(join(state, "v3-state"));

/** `npm run dev` as a new user runs it (its own process group, so a kill takes wrangler and workerd too). */
const startDev = async (port: number, inspectorPort: number): Promise<ChildProcess> =>
  (
    await startWranglerDev({
      viaDevScript: true,
      persistTo: join(state, "v3-state"),
      secret: KEY,
      logFile,
      port,
      inspectorPort,
      timeoutMs: 180_000,
    })
  ).child;

function killGroup(child: ChildProcess) {
  if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
}

async function call<T>(origin: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${origin}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...init.headers },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface JobView {
  status: string;
  summary: Record<string, number>;
}

async function main() {
  const port = await freePort();
  const inspector = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let dev = await startDev(port, inspector);
  try {
    const run = Date.now().toString(36).toUpperCase();
    const page = await call<{ data: { variants: { id: number }[] }[] }>(
      origin,
      "/api/v1/products?per_page=100&includes=variants&fields=internal_id",
    );
    const variantIds = page.data.flatMap((p) => p.variants.map((v) => v.id));
    const variants = Array.from({ length: RECORDS }, (_, i) => ({
      id: variantIds[i % variantIds.length],
      warehouse_stock: i,
    }));
    const products = Array.from({ length: PRODUCTS }, (_, i) => ({
      internal_id: `CHAOS-${run}-${i}`,
      translations: { "es-ES": { name: `Caos ${run} ${i}` } },
      variants: [
        {
          sku: `chaos-${run}-${i}`,
          prices: { market_es: { list_price: { amount: "9.99", currency: "EUR" } } },
        },
      ],
    }));
    const post = async (path: string, body: unknown) =>
      (await call<{ job_id: string }[]>(origin, path, { method: "POST", body: JSON.stringify(body) }))[0]
        ?.job_id as string;
    const variantsJob = await post("/api/v1/variants/bulk", { options: { match_by: "id" }, variants });
    const productsJob = await post("/api/v1/products/bulk", {
      options: { match_by: "internal_id" },
      products,
    });

    // Kill mid-job: once the variants job has applied some chunks, but well before its end.
    let atKill: JobView | undefined;
    const killBy = Date.now() + 60_000;
    while (Date.now() < killBy) {
      atKill = await call<JobView>(origin, `/api/v1/jobs/${variantsJob}`);
      if ((atKill?.summary.processed_records ?? 0) >= RECORDS * 0.15 || FINAL.includes(atKill?.status ?? ""))
        break;
      await sleep(20);
    }
    const productsAtKill = await call<JobView>(origin, `/api/v1/jobs/${productsJob}`);
    killGroup(dev);
    await sleep(1000);

    const restartStarted = Date.now();
    dev = await startDev(port, inspector);
    const servingAt = Date.now();
    const finals: Record<string, JobView> = {};
    while (Date.now() - servingAt < RECOVERY_LIMIT_MS && Object.keys(finals).length < 2) {
      for (const id of [variantsJob, productsJob]) {
        const job = await call<JobView>(origin, `/api/v1/jobs/${id}`);
        if (FINAL.includes(job.status)) finals[id] = job;
      }
      await sleep(500);
    }
    const recoveredMs = Date.now() - servingAt;

    // Exactly once, in payload order: each variant holds the last stock the payload gave it.
    const expected = new Map<number, number>();
    for (const v of variants) expected.set(v.id as number, v.warehouse_stock);
    const stocks = d1Query<{ id: number; warehouse_stock: number }>(
      "local",
      `SELECT id, warehouse_stock FROM variants WHERE id IN (${[...expected.keys()].join(",")})`,
    );
    const wrongStocks = stocks.filter((r) => expected.get(r.id) !== r.warehouse_stock).length;
    const [created] = d1Query<{ n: number; distinct_ids: number }>(
      "local",
      `SELECT COUNT(*) AS n, COUNT(DISTINCT internal_id) AS distinct_ids FROM products WHERE internal_id LIKE 'CHAOS-${run}-%'`,
    );
    const v = finals[variantsJob];
    const p = finals[productsJob];
    const checks = {
      variants_job_done: v?.status === "done",
      variants_every_record_once:
        v?.summary.processed_records === RECORDS && v?.summary.succeeded_records === RECORDS,
      variants_last_record_wins: wrongStocks === 0 && stocks.length === expected.size,
      products_job_done: p?.status === "done",
      products_every_record_once: p?.summary.succeeded_records === PRODUCTS,
      one_product_per_internal_id: created?.n === PRODUCTS && created?.distinct_ids === PRODUCTS,
      within_limit: recoveredMs <= RECOVERY_LIMIT_MS,
    };
    const summary = {
      records: { variants: RECORDS, products: PRODUCTS },
      at_kill: {
        variants_processed: atKill?.summary.processed_records,
        products_processed: productsAtKill.summary.processed_records,
      },
      restart_ms: servingAt - restartStarted,
      recovered_ms_after_restart: recoveredMs,
      final: { variants: v, products: p },
      checks,
    };
    console.log(JSON.stringify(summary, null, 2));
    return Object.values(checks).every(Boolean) ? 0 : 1;
  } finally {
    await stopProcessGroup(dev);
  }
}

main()
  .then((code) => {
    rmSync(state, { recursive: true, force: true });
    process.exit(code);
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error, `\n(dev server log: ${logFile})`);
    process.exit(1);
  });
