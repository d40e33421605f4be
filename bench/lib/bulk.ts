import { setTimeout as sleep } from "node:timers/promises";

/** A bulk payload: the array under its key, serialized once, within `targetBytes`. */
export interface BulkPayload {
  body: string;
  records: number;
  /** Rows the records describe (variants for products, price rows for variants). */
  variants: number;
  prices: number;
}

export const LOCALES = ["es-ES", "en-GB", "fr-FR"] as const;
export const MARKETS = [
  ["market_es", "EUR"],
  ["market_fr", "EUR"],
  ["market_de", "EUR"],
  ["market_it", "EUR"],
  ["market_en", "GBP"],
] as const;

const amount = (n: number) => `${(5 + (n % 9000) / 100).toFixed(2)}`;

/** Fills `key: [...]` with records from `make(i)` until the body would pass `targetBytes` (UTF-8). */
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
    // UTF-8 bytes, not string length: names carry accents (the body limit counts bytes).
    const size = Buffer.byteLength(json);
    if (bytes + size + 1 > targetBytes && parts.length > 0) break;
    parts.push(json);
    bytes += size + (parts.length > 1 ? 1 : 0);
    variants += made.variants;
    prices += made.prices;
  }
  const body = `{"${key}":[${parts.join(",")}],"options":${JSON.stringify(options)}}`;
  return { body, records: parts.length, variants, prices };
}

/** What a realistic import references, read from the catalog before the jobs. */
export interface CatalogRefs {
  brandIds: number[];
  supplierIds: number[];
  categoryIds: number[];
  /** Existing products an import updates (matched by internal id), with their variants' internal ids. */
  products: { internalId: string; variantInternalIds: string[] }[];
}

/** Every `UPDATE_EVERY`th products record updates an existing product, the others create one. */
const UPDATE_EVERY = 4;
const NOUNS = ["Camiseta", "Sudadera", "Pantalón", "Chaqueta", "Zapatilla", "Mochila", "Gorra"];
const FINISHES = ["algodón orgánico", "lino", "técnica", "básica", "reciclada", "premium", "slim"];

/** Product names repeat every 600 records in each locale, so generated slugs collide (`-2`, `-3`). */
const productName = (i: number, locale: string) =>
  `${NOUNS[i % NOUNS.length]} ${FINISHES[Math.floor(i / NOUNS.length) % FINISHES.length]} ${Math.floor(i / 49) % 12} ${locale.slice(0, 2)}`;

const productTranslations = (i: number, runId: string) =>
  Object.fromEntries(
    LOCALES.map((l) => [
      l,
      {
        name: productName(i, l),
        description: `Deterministic benchmark product number ${i} (${runId}) for ${l}, written by the bulk upsert scenario.`,
      },
    ]),
  );

const prices = (seed: number) =>
  Object.fromEntries(
    MARKETS.map(([m, currency], j) => [
      m,
      {
        list_price: { amount: amount(seed + j), currency },
        ...(j % 2 === 0 ? { offer_price: { amount: amount(seed * 3 + j), currency } } : {}),
      },
    ]),
  );

/** 2 or 3 distinct categories, 3 images (one placed first by `position`), a brand and a supplier. */
function references(i: number, runId: string, refs: CatalogRefs) {
  const pick = (list: number[], k: number) => list[(i * 7 + k * 13) % list.length];
  const categories = [0, 1, 2].slice(0, 2 + (i % 2)).map((k) => pick(refs.categoryIds, k));
  const image = (n: number) => `https://cdn.example.com/bench/${runId}/${i}-${n}.jpg`;
  // A tiny catalog (--quick) may lack some references: those fields are left out.
  return {
    brand_id: pick(refs.brandIds, 0),
    supplier_id: pick(refs.supplierIds, i % 3),
    ...(refs.categoryIds.length > 0 ? { category_ids: [...new Set(categories)] } : {}),
    images: [{ url: image(1) }, { url: image(2) }, { url: image(3), position: 0 }],
  };
}

/**
 * A realistic products import (match_by internal_id): 3 of 4 records create a product (3 variants
 * each priced in 5 markets, translations in 3 locales for the product and its variants, generated
 * slugs that collide), 1 of 4 re-sends an existing product with its variants matched by internal
 * id (new names, stock and prices). Every record sets brand, supplier, 2–3 categories and 3 images.
 * Without `refs` (the memory and accept stages): creates only, without references.
 */
export function productsPayload(
  runId: string,
  targetBytes: number,
  refs?: CatalogRefs,
): BulkPayload & { updatedInternalIds: string[] } {
  const updatedInternalIds: string[] = [];
  const payload = fill("products", { match_by: "internal_id" }, targetBytes, 1_000_000, (i) => {
    const existing =
      refs && refs.products.length > 0 && i % UPDATE_EVERY === UPDATE_EVERY - 1
        ? refs.products[(Math.floor(i / UPDATE_EVERY) * 7919) % refs.products.length]
        : undefined;
    const sets = refs ? references(i, runId, refs) : {};
    if (existing) {
      updatedInternalIds.push(existing.internalId);
      const variants = existing.variantInternalIds.map((internalId, k) => ({
        internal_id: internalId,
        warehouse_stock: (i + k) % 50,
        supplier_stock: (i * 7 + k) % 120,
        prices: prices(i * 31 + k * 7),
      }));
      const record = {
        internal_id: existing.internalId,
        status: "published",
        model_code: `BM-${i}`,
        ...sets,
        translations: productTranslations(i, runId),
        variants,
      };
      return { record, variants: variants.length, prices: variants.length * MARKETS.length };
    }
    const variants = [0, 1, 2].map((k) => ({
      sku: `BENCH-${runId}-${i}-${k}`,
      internal_id: `BENCH-V-${runId}-${i}-${k}`,
      ean: String(8_400_000_000_000 + i * 3 + k),
      warehouse_stock: (i + k) % 50,
      supplier_stock: (i * 7 + k) % 120,
      translations: Object.fromEntries(LOCALES.map((l) => [l, { name: `Talla ${k + 1} ${l}` }])),
      prices: prices(i * 31 + k * 7),
    }));
    const record = {
      internal_id: `BENCH-P-${runId}-${i}`,
      product_structure: "with-variants",
      status: "published",
      model_code: `BM-${i}`,
      tax_category: "standard",
      ...sets,
      translations: productTranslations(i, runId),
      variants,
    };
    return { record, variants: 3, prices: 3 * MARKETS.length };
  });
  return {
    ...payload,
    updatedInternalIds: updatedInternalIds.slice(0, Math.floor(payload.records / UPDATE_EVERY)),
  };
}

/** The market and locale a realistic variants update sometimes removes (`null`). */
export const VARIANT_NULLED = { market: "market_de", locale: "de-DE" } as const;

/**
 * A realistic variants sync by id: stock and list/offer prices in 3 markets; every 5th variant also
 * clears its French offer (`offer_price: null`), every 10th drops its German price
 * (`prices.market_de: null`), and every 10th (another one) renames its French variant and removes
 * its German name (`translations.de-DE: null`). Cycles over `variantIds` when the catalog has
 * fewer variants than the payload has room for (a later record of the same variant wins).
 */
export function variantsPayload(variantIds: number[], targetBytes: number): BulkPayload {
  return fill("variants", { match_by: "id" }, targetBytes, Math.max(variantIds.length, 1_000_000), (i) => {
    const id = variantIds[i % variantIds.length] as number;
    const record = {
      id,
      warehouse_stock: (id * 13 + i) % 97,
      supplier_stock: (id * 7) % 211,
      prices: {
        market_es: {
          list_price: { amount: amount(id * 3 + i), currency: "EUR" },
          offer_price: { amount: amount(id * 2), currency: "EUR" },
        },
        market_fr: {
          list_price: { amount: amount(id * 5), currency: "EUR" },
          ...(id % 5 === 0 ? { offer_price: null } : {}),
        },
        market_en: { list_price: { amount: amount(id * 4), currency: "GBP" } },
        ...(id % 10 === 0 ? { [VARIANT_NULLED.market]: null } : {}),
      },
      ...(id % 10 === 5
        ? { translations: { "fr-FR": { name: `Variante ${id}` }, [VARIANT_NULLED.locale]: null } }
        : {}),
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
