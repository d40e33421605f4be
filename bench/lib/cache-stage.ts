import type { Scenario } from "../scenarios.ts";
import { type BulkPayload, runBulk, variantsPayload } from "./bulk.ts";
import { type Bump, type CacheModes, measureCacheModes } from "./cache-modes.ts";
import {
  type MovableCategory,
  runStorefront,
  type StorefrontRun,
  storefrontUrls,
} from "./cache-storefront.ts";
import { openDb } from "./database.ts";
import { load, probe } from "./load.ts";
import { log } from "./log.ts";
import { startDevServer, stopDevServer } from "./server.ts";

/**
 * The edge cache stage: `wrangler dev` with `EDGE_CACHE=on` serving the same state as the other
 * stages; each read scenario's hit, miss and bypass (cache-modes.ts), then the storefront workload
 * (cache-storefront.ts) against it and against a server with the cache off.
 */

export interface CacheStage {
  modeSeconds: number;
  misses: number;
  modes: CacheModes[];
  /**
   * A large answer computed without D1 (the OpenAPI document, kept in isolate memory) at c=1: what
   * moving a body of that size through `wrangler dev` costs by itself, beside the HTTP floor's tiny one.
   */
  bodyFloor?: { path: string; bytes: number; p50Ms: number; p99Ms: number };
  /** The same modes in the simulated deployment, one `wrangler dev` per D1 round-trip time (fewer misses each). */
  rttModes?: { rttMs: number; misses: number; modes: CacheModes[] }[];
  storefront: StorefrontRun[];
  /** Set when the stage ran alone (`--only cache`). */
  run?: string;
}

/** What both storefront runs share: the URLs, the brand the writes change, the bulk job. */
export interface StorefrontPlan {
  urls: string[];
  brandId: number;
  reviewId: number;
  /** What the miss measurement's bumps change: one category, one price list, one variant. */
  categoryId: number;
  /** A leaf category moved between two parents (bumps `category_tree`), by the misses and the storefront's writer. */
  movable: MovableCategory;
  priceListId: number;
  variantId: number;
  bulk: BulkPayload;
  clients: number;
  seconds: number;
  warmupSeconds: number;
}

/** Up to 10,000 product pages, 200 category pages and 50 list pages, from a pre-run copy of the catalog. */
export function storefrontPlan(floorFile: string, quick: boolean): StorefrontPlan {
  const db = openDb(floorFile, true);
  const ids = (sql: string) => (db.prepare(sql).all() as { id: number }[]).map((r) => r.id);
  try {
    const products = ids("SELECT id FROM products ORDER BY id LIMIT 10000");
    const categories = ids("SELECT id FROM categories ORDER BY id LIMIT 200");
    const variants = ids("SELECT id FROM variants ORDER BY id LIMIT 2000");
    return {
      urls: storefrontUrls(products, categories, 50),
      brandId: ids("SELECT id FROM brands ORDER BY id LIMIT 1")[0] ?? 1,
      reviewId: ids("SELECT id FROM reviews ORDER BY id LIMIT 1")[0] ?? 1,
      categoryId: categories[0] ?? 1,
      movable: movableCategory(db),
      priceListId: ids("SELECT id FROM price_lists ORDER BY id LIMIT 1")[0] ?? 1,
      variantId: variants[0] ?? 1,
      // A small variants update: a few chunks, each bumping `products` once.
      bulk: variantsPayload(variants, quick ? 30_000 : 300_000),
      clients: 16,
      seconds: quick ? 2 : 20,
      warmupSeconds: quick ? 0.5 : 10,
    };
  } finally {
    db.close();
  }
}

/** A leaf category with a parent, and another category it can move under (no cycle: it has no children). */
function movableCategory(db: ReturnType<typeof openDb>): MovableCategory {
  const leaf = db
    .prepare(
      "SELECT c.id, c.parent_id AS parent FROM categories c WHERE c.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id) ORDER BY c.id LIMIT 1",
    )
    .get() as { id: number; parent: number } | undefined;
  if (!leaf) throw new Error("cache stage: the catalog has no leaf category with a parent to move");
  const other = db
    .prepare("SELECT id FROM categories WHERE id NOT IN (?, ?) ORDER BY id LIMIT 1")
    .get(leaf.id, leaf.parent) as { id: number } | undefined;
  return { id: leaf.id, parents: [other?.id ?? leaf.parent, leaf.parent] };
}

export function storefrontRun(
  origin: string,
  secret: string,
  cache: "on" | "off",
  plan: StorefrontPlan,
  errors: string[],
) {
  // Only the cache has anything to warm; quick runs skip it (84 URLs, 2 s).
  const prewarm = cache === "on" && plan.urls.length > 1000;
  return runStorefront({ origin, secret, cache, ...plan, prewarm, errors }).then((run) => {
    log(
      `cache storefront (cache ${cache}): ${run.requests} reads, ${(run.hitRatio * 100).toFixed(1)} % hits, p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms, ${run.rowsReadPer1000.toFixed(0)} rows read per 1,000, staleness max ${run.maxStalenessMs?.toFixed(0) ?? "–"} ms`,
    );
    return run;
  });
}

/** One write whose commit bumps `domain`'s generation: a route PATCH, or for products a one-record bulk job. */
function bumper(origin: string, secret: string, plan: StorefrontPlan): Bump {
  let n = 0;
  const patch = async (path: string, body: object) => {
    const res = await fetch(origin + path, {
      method: "PATCH",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`PATCH ${path} answered ${res.status}`);
  };
  const variantOf = new Map<string, number>();
  /** A variant of the product the path reads (its page is keyed by that product's bucket). */
  const variantFor = async (path: string) => {
    const productId = /\/api\/v1\/products\/(\d+)/.exec(path)?.[1];
    if (!productId) return plan.variantId;
    const known = variantOf.get(productId);
    if (known !== undefined) return known;
    const res = await fetch(`${origin}/api/v1/products/${productId}/variants?per_page=1`, {
      headers: { authorization: `Bearer ${secret}`, "cache-control": "no-cache" },
    });
    const body = (await res.json()) as { data?: { id: number }[] };
    const id = body.data?.[0]?.id ?? plan.variantId;
    variantOf.set(productId, id);
    return id;
  };
  return async (domain, path) => {
    n++;
    if (domain === "products") {
      // A stock value never sent before, so the record changes (an unchanged one writes nothing).
      const record = { id: await variantFor(path), warehouse_stock: 100_000 + n };
      const payload = {
        body: JSON.stringify({ variants: [record], options: { match_by: "id" } }),
        records: 1,
        variants: 1,
        prices: 0,
      };
      const run = await runBulk({
        origin,
        path: "/api/v1/variants/bulk",
        secret,
        payload,
        timeoutMs: 30_000,
        pollMs: 20,
      });
      if (run.status !== "done") throw new Error(`the products bump's bulk job ended ${run.status}`);
      return;
    }
    if (domain === "category_tree") {
      // Under the category the path filters by, and back: either way that category's stamp moves.
      const { id, parents } = plan.movable;
      const filtered = Number(new URL(path, "http://bench").searchParams.get("category_ids")?.split(",")[0]);
      const target = Number.isSafeInteger(filtered) && filtered !== id ? filtered : parents[0];
      return patch(`/api/v1/categories/${id}`, { parent_id: n % 2 === 0 ? target : parents[1] });
    }
    if (domain === "categories")
      return patch(`/api/v1/categories/${plan.categoryId}`, {
        translations: { "es-ES": { name: `Bench category ${n}` } },
      });
    if (domain === "price_lists")
      return patch(`/api/v1/price-lists/${plan.priceListId}`, { global_discount: String(n % 50) });
    return patch(`/api/v1/reviews/${plan.reviewId}`, { reviewer_name: `Bench reviewer ${n}` });
  };
}

/** The cache-on server: modes, then the storefront; `off` is the same workload run on a cache-off server. */
export async function runCacheStage(o: {
  persistTo: string;
  config: string;
  secret: string;
  logFile: string;
  scenarios: Scenario[];
  plan: StorefrontPlan;
  off: StorefrontRun | undefined;
  /** D1 round-trip times of the simulated deployment (src/simulated-latency.ts). */
  rtts: number[];
  quick: boolean;
  errors: string[];
}): Promise<CacheStage> {
  const modeSeconds = o.quick ? 0.3 : 2;
  const misses = o.quick ? 2 : 20;
  const server = await startDevServer({
    persistTo: o.persistTo,
    config: o.config,
    secret: o.secret,
    logFile: o.logFile,
    vars: { EDGE_CACHE: "on" },
  });
  log(`cache: wrangler dev (EDGE_CACHE=on) answering after ${server.startMs} ms`);
  const storefront: StorefrontRun[] = [];
  let modes: CacheModes[] = [];
  let bodyFloor: CacheStage["bodyFloor"];
  try {
    modes = await measureCacheModes({
      origin: server.origin,
      secret: o.secret,
      scenarios: o.scenarios,
      seconds: modeSeconds,
      misses,
      bump: bumper(server.origin, o.secret, o.plan),
      errors: o.errors,
    });
    bodyFloor = await measureBodyFloor(server.origin, o.secret, modeSeconds);
    storefront.push(await storefrontRun(server.origin, o.secret, "on", o.plan, o.errors));
  } catch (err) {
    o.errors.push(`cache stage: ${(err as Error).message}`);
  } finally {
    await stopDevServer(server);
  }
  if (o.off) storefront.push(o.off);
  const rttModes: NonNullable<CacheStage["rttModes"]> = [];
  const rttMisses = o.quick ? 1 : 5;
  for (const rttMs of o.rtts) {
    const simulated = await startDevServer({
      persistTo: o.persistTo,
      config: o.config,
      secret: o.secret,
      logFile: o.logFile,
      vars: { EDGE_CACHE: "on", SIMULATED_D1_RTT_MS: String(rttMs) },
    });
    log(`cache at D1 rtt ${rttMs} ms: wrangler dev answering after ${simulated.startMs} ms`);
    try {
      const at = await measureCacheModes({
        origin: simulated.origin,
        secret: o.secret,
        scenarios: o.scenarios,
        seconds: modeSeconds,
        misses: rttMisses,
        bump: bumper(simulated.origin, o.secret, o.plan),
        errors: o.errors,
        label: `rtt ${rttMs} `,
      });
      rttModes.push({ rttMs, misses: rttMisses, modes: at });
    } catch (err) {
      o.errors.push(`cache stage at rtt ${rttMs}: ${(err as Error).message}`);
    } finally {
      await stopDevServer(simulated);
    }
  }
  return { modeSeconds, misses, modes, storefront, rttModes, ...(bodyFloor ? { bodyFloor } : {}) };
}

async function measureBodyFloor(origin: string, secret: string, seconds: number) {
  const path = "/api/v1/openapi.json";
  const first = await probe(origin, path, secret, 3);
  const r = await load({ origin, path, secret, connections: 1, seconds });
  log(`cache body floor: ${path} (${first.bytes} bytes) p50 ${r.p50Ms.toFixed(2)} ms`);
  return { path, bytes: first.bytes, p50Ms: r.p50Ms, p99Ms: r.p99Ms };
}
