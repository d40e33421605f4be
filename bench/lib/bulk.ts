import { setTimeout as sleep } from "node:timers/promises";

/** A bulk payload: the array under its key, serialized once, within `targetBytes`. */
export interface BulkPayload {
  body: string;
  records: number;
  /** Rows the records describe (variants for products, price rows for variants). */
  variants: number;
  prices: number;
}

const LOCALES = ["es-ES", "en-GB", "fr-FR"] as const;
const MARKETS = [
  ["market_es", "EUR"],
  ["market_fr", "EUR"],
  ["market_de", "EUR"],
  ["market_it", "EUR"],
  ["market_en", "GBP"],
] as const;

const amount = (n: number) => `${(5 + (n % 9000) / 100).toFixed(2)}`;

/** Fills `key: [...]` with records from `make(i)` until the body would pass `targetBytes`. */
function fill(
  key: string,
  options: Record<string, unknown>,
  targetBytes: number,
  maxRecords: number,
  make: (i: number) => { record: unknown; variants: number; prices: number },
): BulkPayload {
  const parts: string[] = [];
  let bytes = `{"${key}":[],"options":${JSON.stringify(options)}}`.length;
  let variants = 0;
  let prices = 0;
  for (let i = 0; i < maxRecords; i++) {
    const made = make(i);
    const json = JSON.stringify(made.record);
    if (bytes + json.length + 1 > targetBytes && parts.length > 0) break;
    parts.push(json);
    bytes += json.length + (parts.length > 1 ? 1 : 0);
    variants += made.variants;
    prices += made.prices;
  }
  const body = `{"${key}":[${parts.join(",")}],"options":${JSON.stringify(options)}}`;
  return { body, records: parts.length, variants, prices };
}

/**
 * Product creates (match_by internal_id): 3 variants each priced in 5 markets, translations in 3
 * locales for the product (name, description) and its variants (name).
 */
export function productsPayload(runId: string, targetBytes: number): BulkPayload {
  return fill("products", { match_by: "internal_id" }, targetBytes, 1_000_000, (i) => {
    const variants = [0, 1, 2].map((k) => ({
      sku: `BENCH-${runId}-${i}-${k}`,
      internal_id: `BENCH-V-${runId}-${i}-${k}`,
      ean: String(8_400_000_000_000 + i * 3 + k),
      warehouse_stock: (i + k) % 50,
      supplier_stock: (i * 7 + k) % 120,
      translations: Object.fromEntries(LOCALES.map((l) => [l, { name: `Talla ${k + 1} ${l}` }])),
      prices: Object.fromEntries(
        MARKETS.map(([m, currency], j) => [
          m,
          {
            list_price: { amount: amount(i * 31 + k * 7 + j), currency },
            ...(j % 2 === 0 ? { offer_price: { amount: amount(i * 29 + k), currency } } : {}),
          },
        ]),
      ),
    }));
    const record = {
      internal_id: `BENCH-P-${runId}-${i}`,
      product_structure: "with-variants",
      status: "published",
      model_code: `BM-${i}`,
      tax_category: "standard",
      translations: Object.fromEntries(
        LOCALES.map((l) => [
          l,
          {
            name: `Benchmark product ${runId} ${i} ${l}`,
            description: `Deterministic benchmark product number ${i} for ${l}, created by the bulk upsert scenario.`,
          },
        ]),
      ),
      variants,
    };
    return { record, variants: 3, prices: 3 * MARKETS.length };
  });
}

/** Variant updates by id: stock and list/offer prices in 3 markets, cycling over `variantIds`. */
export function variantsPayload(variantIds: number[], targetBytes: number): BulkPayload {
  return fill("variants", { match_by: "id" }, targetBytes, variantIds.length, (i) => {
    const id = variantIds[i] as number;
    const record = {
      id,
      warehouse_stock: (id * 13) % 97,
      supplier_stock: (id * 7) % 211,
      prices: {
        market_es: {
          list_price: { amount: amount(id * 3), currency: "EUR" },
          offer_price: { amount: amount(id * 2), currency: "EUR" },
        },
        market_fr: { list_price: { amount: amount(id * 5), currency: "EUR" } },
        market_en: { list_price: { amount: amount(id * 4), currency: "GBP" } },
      },
    };
    return { record, variants: 1, prices: 3 };
  });
}

/** What a clearing update removes from each variant: one market's price or one locale's name. */
export type Clearing = { prices: string } | { translations: string };

/**
 * Variant updates by id that only remove something (`prices.<market>: null` or
 * `translations.<locale>: null`): each record deletes one row of a table holding several rows per
 * variant, the statement a catalog-sized scan once made take seconds per chunk.
 */
export function clearingPayload(variantIds: number[], clearing: Clearing, targetBytes: number): BulkPayload {
  return fill("variants", { match_by: "id" }, targetBytes, variantIds.length, (i) => {
    const id = variantIds[i] as number;
    const record =
      "prices" in clearing
        ? { id, prices: { [clearing.prices]: null } }
        : { id, translations: { [clearing.translations]: null } };
    return { record, variants: 1, prices: "prices" in clearing ? 1 : 0 };
  });
}

export interface BulkRun {
  jobId: string;
  status: string;
  acceptMs: number;
  /** Server-Timing of the 202 answer: time inside the Worker and D1 round trips of the accept. */
  acceptServerTiming: string | null;
  wallMs: number;
  summary: Record<string, number>;
  /** The job's own timestamps (whole seconds). */
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  polls: number;
}

const FINAL = new Set(["done", "done_with_errors", "failed"]);

/** POSTs the payload and polls GET /api/v1/jobs/{id} until a final status: wall time from the POST. */
export async function runBulk(o: {
  origin: string;
  path: string;
  secret: string;
  payload: BulkPayload;
  timeoutMs: number;
  pollMs?: number;
}): Promise<BulkRun> {
  const headers = { authorization: `Bearer ${o.secret}`, "content-type": "application/json" };
  const started = performance.now();
  const res = await fetch(o.origin + o.path, { method: "POST", headers, body: o.payload.body });
  const text = await res.text();
  const acceptMs = performance.now() - started;
  const acceptServerTiming = res.headers.get("server-timing");
  if (res.status !== 202)
    throw new Error(`POST ${o.path}: expected 202, got ${res.status}: ${text.slice(0, 500)}`);
  const jobId = (JSON.parse(text) as { job_id: string }[])[0]?.job_id as string;
  let polls = 0;
  for (;;) {
    const poll = await fetch(`${o.origin}/api/v1/jobs/${jobId}`, { headers });
    const job = (await poll.json()) as {
      status: string;
      summary: Record<string, number>;
      created_at?: string;
      started_at?: string | null;
      finished_at?: string | null;
    };
    polls++;
    if (FINAL.has(job.status)) {
      return {
        jobId,
        status: job.status,
        acceptMs,
        acceptServerTiming,
        wallMs: performance.now() - started,
        summary: job.summary,
        createdAt: job.created_at ?? null,
        startedAt: job.started_at ?? null,
        finishedAt: job.finished_at ?? null,
        polls,
      };
    }
    if (performance.now() - started > o.timeoutMs) {
      throw new Error(
        `job ${jobId} still ${job.status} after ${o.timeoutMs} ms: ${JSON.stringify(job.summary)}`,
      );
    }
    await sleep(o.pollMs ?? 100);
  }
}
