/**
 * npm run soak [-- --seconds N] [-- --concurrency C] [-- --keep]
 *
 * A bounded soak run against `wrangler dev` on loopback: a fresh state directory (never the
 * developer's .wrangler/state) with the demo seed, then C workers (default 32) send mixed reads,
 * writes (brand, supplier and review creates and patches) and small bulk jobs for N seconds
 * (default 120). Afterwards every accepted write must read back with the written values and every
 * accepted job must be final with a consistent summary. Reports requests, answers by status and
 * p50/p99 latencies; exits non-zero on any 5xx or network error, lost write or unfinished job.
 */
import { parseArgs } from "node:util";
import { prepareState, removeState, type SoakServer, startServer, stopServer } from "./lib/soak-server.ts";
import { WranglerError } from "./lib/wrangler.ts";

const USAGE = `Usage: npm run soak [-- [--seconds N] [--concurrency C] [--keep]]

  --seconds N       load duration (default 120)
  --concurrency C   requests in flight (default 32)
  --max-requests R  stop after R requests even if time is left (default 1,000,000)
  --keep            keep the state directory and the wrangler log afterwards`;

const SECRET = "sfk_local_development_key"; // created by the demo seed in the soak's own database
const FINAL = new Set(["done", "done_with_errors", "failed"]);
const REQUEST_TIMEOUT_MS = 30_000;

type Category = "read" | "write" | "bulk";

/** A parsed JSON answer of any shape (the soak reads a few known fields from it). */
// biome-ignore lint/suspicious/noExplicitAny: answers of every route, read loosely
type Json = any;

interface Answer {
  status: number; // 0: network error or timeout
  json: Json;
  ms: number;
}

class Stats {
  readonly byStatus = new Map<string, number>();
  readonly latencies: Record<Category, number[]> = { read: [], write: [], bulk: [] };
  readonly failures: string[] = [];
  requests = 0;

  record(category: Category, label: string, answer: Answer) {
    this.requests++;
    const key = answer.status === 0 ? "network error" : String(answer.status);
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1);
    this.latencies[category].push(answer.ms);
    if ((answer.status === 0 || answer.status >= 500) && this.failures.length < 20) {
      this.failures.push(`${label} → ${key} ${JSON.stringify(answer.json)?.slice(0, 200) ?? ""}`);
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);

class Client {
  readonly origin: string;
  readonly stats: Stats;

  constructor(origin: string, stats: Stats) {
    this.origin = origin;
    this.stats = stats;
  }

  async send(category: Category, method: string, path: string, body?: unknown): Promise<Answer> {
    const started = performance.now();
    let answer: Answer;
    try {
      const res = await fetch(`${this.origin}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${SECRET}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      let json: Json;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text.slice(0, 200);
      }
      answer = { status: res.status, json, ms: performance.now() - started };
    } catch (err) {
      answer = { status: 0, json: String(err), ms: performance.now() - started };
    }
    this.stats.record(category, `${method} ${path.slice(0, 80)}`, answer);
    return answer;
  }
}

/** What a worker wrote and got accepted: the state each resource must have at the end. */
interface Expected {
  path: string;
  query: string;
  fields: Record<string, unknown>;
}

/** Deterministic per worker, so a run can be repeated. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

interface Catalog {
  brands: number[];
  products: number[];
  variants: number[];
  priceLists: number[];
}

async function loadCatalog(client: Client): Promise<Catalog> {
  const ids = async (path: string) =>
    ((await client.send("read", "GET", path)).json?.data ?? []).map((r: { id: number }) => r.id) as number[];
  const products = await ids("/api/v1/products?per_page=100&fields=status");
  const variants: number[] = [];
  for (const id of products.slice(0, 10)) variants.push(...(await ids(`/api/v1/products/${id}/variants`)));
  return {
    brands: await ids("/api/v1/brands?per_page=100"),
    products,
    variants,
    priceLists: await ids("/api/v1/price-lists"),
  };
}

const READS = (c: Catalog, pick: <T>(xs: T[]) => T) => [
  () => "/api/v1/store?locales=ALL",
  () => `/api/v1/brands?per_page=${pick([10, 50, 100])}&sort=${pick(["id_asc", "name_desc"])}`,
  () => `/api/v1/brands/${pick(c.brands)}?locales=es-ES,en-GB`,
  () => "/api/v1/categories?locales=es-ES,fr-FR&fields=name,url,parent_id",
  () => `/api/v1/products?includes=variants,brand,categories,supplier&locales=ALL&per_page=${pick([5, 20])}`,
  () => `/api/v1/products/${pick(c.products)}?includes=variants`,
  () => `/api/v1/products/${pick(c.products)}/variants?locales=ALL&fields=prices,sku,warehouse_stock`,
  () => "/api/v1/orders?includes=customer&fields=line_items&per_page=20",
  () => `/api/v1/reviews?sort=${pick(["rating_desc", "created_at_asc"])}`,
  () => "/api/v1/contacts?view=customers&per_page=50",
  () => `/api/v1/price-lists/${pick(c.priceLists)}/variant-prices`,
  () => "/api/v1/suppliers",
  () => "/api/v1/jobs?sort=created_at_desc",
];

interface WorkerState {
  brands: number[];
  suppliers: number[];
  reviews: number[];
}

/** One worker: a loop of mixed requests until the deadline; writes only touch what it created. */
async function worker(
  n: number,
  client: Client,
  catalog: Catalog,
  deadline: number,
  budget: { left: number },
  expected: Map<string, Expected>,
  jobs: string[],
  runTag: string,
) {
  const random = rng(n * 7919 + 17);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const reads = READS(catalog, pick);
  const mine: WorkerState = { brands: [], suppliers: [], reviews: [] };
  const remember = (path: string, query: string, fields: Record<string, unknown>) => {
    const prev = expected.get(path);
    expected.set(path, {
      path,
      query: query || prev?.query || "",
      fields: { ...(prev?.fields ?? {}), ...fields },
    });
  };
  let i = 0;
  while (Date.now() < deadline && budget.left-- > 0) {
    i++;
    const roll = random();
    const tag = `${runTag}-w${n}-${i}`;
    if (roll < 0.62) {
      await client.send("read", "GET", pick(reads)());
    } else if (roll < 0.7 || mine.brands.length === 0) {
      const body = {
        name: `Soak brand ${tag}`,
        internal_id: `SOAK-${tag}`,
        delivery_time_in_stock: i % 10,
        translations: { "es-ES": { description: `Descripción ${tag}` } },
      };
      const res = await client.send("write", "POST", "/api/v1/brands", body);
      if (res.status === 201) {
        mine.brands.push(res.json.id);
        remember(
          `/api/v1/brands/${res.json.id}`,
          "fields=name,internal_id,delivery_time_in_stock,description",
          {
            name: body.name,
            internal_id: body.internal_id,
            delivery_time_in_stock: body.delivery_time_in_stock,
            "es-ES.description": `Descripción ${tag}`,
          },
        );
      }
    } else if (roll < 0.76) {
      const id = pick(mine.brands);
      const body = {
        delivery_time_in_stock: i % 7,
        translations: { "es-ES": { description: `Cambio ${tag}` } },
      };
      const res = await client.send("write", "PATCH", `/api/v1/brands/${id}`, body);
      if (res.status === 200) {
        remember(`/api/v1/brands/${id}`, "", {
          delivery_time_in_stock: body.delivery_time_in_stock,
          "es-ES.description": `Cambio ${tag}`,
        });
      }
    } else if (roll < 0.82 || mine.suppliers.length === 0) {
      const body = {
        name: `Soak supplier ${tag}`,
        internal_id: `SOAK-SUP-${tag}`,
        description: `Proveedor ${tag}`,
      };
      const res = await client.send("write", "POST", "/api/v1/suppliers", body);
      if (res.status === 201) {
        mine.suppliers.push(res.json.id);
        remember(`/api/v1/suppliers/${res.json.id}`, "fields=internal_id,description", body);
      }
    } else if (roll < 0.86) {
      const id = pick(mine.suppliers);
      const body = { description: `Cambio ${tag}` };
      const res = await client.send("write", "PATCH", `/api/v1/suppliers/${id}`, body);
      if (res.status === 200) remember(`/api/v1/suppliers/${id}`, "", body);
    } else if (roll < 0.91 || mine.reviews.length === 0) {
      const product = pick(catalog.products);
      const body = {
        locale: "es-ES",
        type: "product",
        product_id: product,
        content: `Reseña ${tag}`,
        reviewer_email: `soak+${n}@example.com`,
        rating: (i % 5) + 1,
      };
      const res = await client.send("write", "POST", "/api/v1/reviews", body);
      if (res.status === 201) {
        mine.reviews.push(res.json.id);
        remember(`/api/v1/reviews/${res.json.id}`, "fields=content,rating,product_id,status", {
          status: "unpublished",
          content: body.content,
          rating: body.rating,
          product_id: product,
        });
      }
    } else if (roll < 0.95) {
      const id = pick(mine.reviews);
      const body = { rating: (i % 5) + 1, status: pick(["published", "unpublished"]) };
      const res = await client.send("write", "PATCH", `/api/v1/reviews/${id}`, body);
      if (res.status === 200) remember(`/api/v1/reviews/${id}`, "", body);
    } else if (roll < 0.975) {
      const variants = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
        id: pick(catalog.variants),
        warehouse_stock: Math.floor(random() * 100),
      }));
      const res = await client.send("bulk", "POST", "/api/v1/variants/bulk", {
        variants: [...variants, { id: 999_999_999, warehouse_stock: 1 }],
        options: { match_by: "id" },
      });
      if (res.status === 202) jobs.push(res.json[0].job_id);
    } else {
      const res = await client.send(
        "bulk",
        "POST",
        `/api/v1/price-lists/${pick(catalog.priceLists)}/variant-prices/bulk`,
        {
          prices: [{ variant_id: pick(catalog.variants), price: { amount: "9.99", currency_code: "EUR" } }],
          options: { match_by: "variant_id", mode: "upsert" },
        },
      );
      if (res.status === 202) jobs.push(res.json[0].job_id);
    }
  }
}

/** Reads every accepted write back; returns the paths whose state differs (or that are gone). */
async function verifyWrites(client: Client, expected: Map<string, Expected>) {
  const lost: string[] = [];
  const entries = [...expected.values()];
  for (let i = 0; i < entries.length; i += 16) {
    await Promise.all(
      entries.slice(i, i + 16).map(async (e) => {
        // Only brands are read with `locales` (suppliers and reviews are not translated).
        const localized = Object.keys(e.fields).some((f) => f.includes("."));
        const res = await client.send(
          "read",
          "GET",
          `${e.path}?${e.query}${localized ? "&locales=es-ES" : ""}`,
        );
        if (res.status !== 200) {
          lost.push(`${e.path}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
          return;
        }
        for (const [field, want] of Object.entries(e.fields)) {
          const [locale, name] = field.includes(".") ? field.split(".") : [undefined, field];
          const got = locale ? res.json.translations?.[locale]?.[name as string] : res.json[name as string];
          if (got !== want)
            lost.push(`${e.path}: ${field} is ${JSON.stringify(got)}, wrote ${JSON.stringify(want)}`);
        }
      }),
    );
  }
  return lost;
}

async function verifyJobs(client: Client, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const open = new Set(ids);
  const inconsistent: string[] = [];
  while (open.size > 0 && Date.now() < deadline) {
    for (const id of [...open]) {
      const res = await client.send("read", "GET", `/api/v1/jobs/${id}`);
      if (!FINAL.has(res.json?.status)) continue;
      open.delete(id);
      const s = res.json.summary;
      if (
        s.processed_records !== s.total_records ||
        s.succeeded_records + s.failed_records !== s.processed_records
      ) {
        inconsistent.push(`${id}: ${JSON.stringify(s)}`);
      }
    }
    if (open.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  return { unfinished: [...open], inconsistent };
}

async function main(argv: string[]): Promise<number> {
  let values: {
    seconds?: string;
    concurrency?: string;
    "max-requests"?: string;
    keep?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        seconds: { type: "string" },
        concurrency: { type: "string" },
        "max-requests": { type: "string" },
        keep: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const num = (raw: string | undefined, fallback: number, max: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    return Number.isInteger(n) && n > 0 && n <= max ? n : Number.NaN;
  };
  const seconds = num(values.seconds, 120, 3600);
  const concurrency = num(values.concurrency, 32, 256);
  const maxRequests = num(values["max-requests"], 1_000_000, 10_000_000);
  if ([seconds, concurrency, maxRequests].some(Number.isNaN)) {
    console.error(
      `--seconds (1..3600), --concurrency (1..256) and --max-requests must be positive integers\n\n${USAGE}`,
    );
    return 2;
  }

  console.log("Preparing a fresh local database (migrations + demo seed)…");
  const dir = await prepareState();
  let server: SoakServer | undefined;
  const stop = async () => {
    if (server) await stopServer(server);
    if (!values.keep) removeState(dir);
  };
  process.once("SIGINT", () => void stop().then(() => process.exit(130)));
  try {
    server = await startServer(dir, SECRET);
    console.log(`wrangler dev on ${server.origin} (state in ${dir})`);
    const stats = new Stats();
    const client = new Client(server.origin, stats);
    const catalog = await loadCatalog(client);
    const expected = new Map<string, Expected>();
    const jobs: string[] = [];
    const runTag = Date.now().toString(36);
    const started = Date.now();
    const deadline = started + seconds * 1000;
    const budget = { left: maxRequests };
    const progress = setInterval(() => {
      const elapsed = (Date.now() - started) / 1000;
      console.log(
        `  ${elapsed.toFixed(0)} s: ${stats.requests} requests (${(stats.requests / elapsed).toFixed(0)}/s)`,
      );
    }, 15_000);
    console.log(`Load: ${concurrency} workers for ${seconds} s…`);
    await Promise.all(
      Array.from({ length: concurrency }, (_, n) =>
        worker(n, client, catalog, deadline, budget, expected, jobs, runTag),
      ),
    );
    clearInterval(progress);
    const loadSeconds = (Date.now() - started) / 1000;
    const loadRequests = stats.requests;
    const latencies = {
      read: [...stats.latencies.read],
      write: [...stats.latencies.write],
      bulk: [...stats.latencies.bulk],
    };
    const loadStatuses = new Map(stats.byStatus);

    console.log(`Checking ${expected.size} written resources and ${jobs.length} jobs…`);
    const lost = await verifyWrites(client, expected);
    const { unfinished, inconsistent } = await verifyJobs(client, jobs, 120_000);

    const fmt = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return `${sorted.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
    };
    const serverErrors = [...stats.byStatus.entries()]
      .filter(([k]) => k === "network error" || Number(k) >= 500)
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `\nSoak: ${loadRequests} requests in ${loadSeconds.toFixed(1)} s (${(loadRequests / loadSeconds).toFixed(0)}/s) at concurrency ${concurrency}`,
    );
    console.log(`  all:   ${fmt([...latencies.read, ...latencies.write, ...latencies.bulk])}`);
    for (const c of ["read", "write", "bulk"] as const)
      console.log(`  ${c}:${" ".repeat(6 - c.length)}${fmt(latencies[c])}`);
    const statuses = (m: Map<string, number>) => JSON.stringify(Object.fromEntries([...m.entries()].sort()));
    console.log(`  answers by status during the load: ${statuses(loadStatuses)}`);
    console.log(`  answers by status, verification included: ${statuses(stats.byStatus)}`);
    console.log(`  5xx / network errors: ${serverErrors}`);
    for (const f of stats.failures) console.log(`    ${f}`);
    console.log(`  accepted writes checked: ${expected.size}, lost or wrong: ${lost.length}`);
    for (const l of lost.slice(0, 20)) console.log(`    ${l}`);
    console.log(
      `  accepted jobs: ${jobs.length}, unfinished: ${unfinished.length}, inconsistent summaries: ${inconsistent.length}`,
    );
    for (const j of [...unfinished, ...inconsistent].slice(0, 20)) console.log(`    ${j}`);
    const ok =
      serverErrors === 0 && lost.length === 0 && unfinished.length === 0 && inconsistent.length === 0;
    console.log(
      ok ? "PASS" : `FAIL${values.keep ? "" : ` (rerun with --keep to inspect ${server.logFile})`}`,
    );
    return ok ? 0 : 1;
  } finally {
    await stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof WranglerError ? error.message : error);
    process.exit(1);
  },
);
