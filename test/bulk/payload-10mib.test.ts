import { env } from "cloudflare:test";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { utf8Length } from "../../src/async/bulk/bulk-sql.ts";
import { CHUNK_MAX_RECORDS, type ChunkRange } from "../../src/async/bulk/chunking.ts";
import { bookkeeping, WHOLE_CHUNK } from "../../src/async/bulk/ledger.ts";
import type { JobRow } from "../../src/async/bulk/types.ts";
import { createDb } from "../../src/db/client.ts";
import { productsUpsert } from "../../src/resources/products/products.bulk-processor.ts";
import { api } from "../support/api.ts";
import { planChunks, waitForJob } from "../support/jobs.ts";

/**
 * The 10 MiB check: a products payload just under the limit is accepted and
 * completes `done` locally. About 20 s in workerd (25 chunks), so it stays in the default run; it
 * prints wall time, records/s, chunk count and the first chunk's D1 figures.
 */
const LIMIT = 10 * 1024 * 1024;
const PRODUCTS = 5000;
const LOCALES = ["es-ES", "en-GB", "fr-FR"] as const;
const WORDS = "ligera transpirable algodón orgánico costuras planas lavado frío talla ajustada".split(" ");

const text = (seed: number, length: number) => {
  let out = "";
  for (let i = seed; out.length < length; i++) out += `${WORDS[i % WORDS.length]} `;
  return out.slice(0, length).trim();
};

function payload(run: string, descriptionLength: number) {
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    internal_id: `${run}-P${i}`,
    status: "published",
    model_code: `MC-${i}`,
    tax_category: i % 3 === 0 ? "reduced" : "standard",
    translations: Object.fromEntries(
      LOCALES.map((locale, l) => [
        locale,
        {
          name: `Camiseta ${locale} ${run} ${i}`,
          description: text(i + l, descriptionLength),
          meta_title: `Camiseta ${i}`,
        },
      ]),
    ),
    variants: Array.from({ length: 2 + (i % 2) }, (_, v) => ({
      sku: `${run}-S${i}-${v}`,
      ean: `84${String(i * 10 + v).padStart(11, "0")}`,
      internal_id: `${run}-V${i}-${v}`,
      warehouse_stock: v,
      supplier_stock: 3,
      translations: Object.fromEntries(LOCALES.map((locale) => [locale, { name: `Talla ${v}` }])),
      prices: {
        market_es: {
          list_price: { amount: "19.90", currency: "EUR" },
          offer_price: { amount: "17.50", currency: "EUR" },
        },
        market_fr: { list_price: { amount: "20.90", currency: "EUR" } },
        market_en: { list_price: { amount: "17.00", currency: "GBP" } },
      },
    })),
  }));
  return { products, options: { match_by: "internal_id" } };
}

/** The largest payload under 10 MiB: description length grown until the next step would pass it. */
function payloadUnderLimit(run: string) {
  const base = utf8Length(JSON.stringify(payload(run, 0)));
  let length = Math.floor((LIMIT - base) / (PRODUCTS * LOCALES.length)) - 2;
  for (;;) {
    const body = JSON.stringify(payload(run, length));
    if (utf8Length(body) < LIMIT) return body;
    length -= 1;
  }
}

describe("10 MiB products payload", () => {
  it("is accepted and completes done (prints wall time, records/s, chunks and per-chunk D1 figures)", async () => {
    const run = `TEN${Date.now().toString(36)}`;
    const body = payloadUnderLimit(run);
    const bytes = utf8Length(body);
    expect(bytes).toBeLessThan(LIMIT);
    expect(bytes).toBeGreaterThan(LIMIT - 64 * 1024);
    // What the consumer will run for the first chunk, planned against the empty catalog.
    const { planner, records: recordsOf } = planChunks(body, "products");
    const chunks = planner.chunks;
    const first = recordsOf(chunks[0] as ChunkRange);
    const job = {
      id: crypto.randomUUID(),
      type: "products_bulk_upsert",
      params: { options: { match_by: "internal_id" } },
    } as unknown as JobRow;
    const ctx = { db: createDb(env.DB), env, job, today: "2026-01-01" };
    const plan = await productsUpsert.plan(ctx, first);
    expect(plan.outcomes.every((o) => o.ok)).toBe(true);
    const statements = [...bookkeeping(job.id, 0, WHOLE_CHUNK, plan.outcomes), ...plan.statements];
    const dialect = new SQLiteSyncDialect();
    const queries = statements.map((s) => dialect.sqlToQuery(s));
    const largestParam = Math.max(
      ...queries.flatMap((q) => q.params.map((p) => (typeof p === "string" ? utf8Length(p) : 0))),
    );
    const longestSql = Math.max(...queries.map((q) => utf8Length(q.sql)));
    const maxParams = Math.max(...queries.map((q) => q.params.length));

    const started = Date.now();
    const res = await api("/api/v1/products/bulk", { method: "POST", body });
    expect(res.status, res.text.slice(0, 500)).toBe(202);
    const accepted = Date.now();
    const jobId = res.json[0].job_id as string;
    const final = await waitForJob(jobId, 240_000);
    const finished = Date.now();
    expect(final.status).toBe("done");
    expect(final.summary).toMatchObject({
      total_records: PRODUCTS,
      processed_records: PRODUCTS,
      succeeded_records: PRODUCTS,
      failed_records: 0,
    });
    const row = await env.DB.prepare("SELECT chunk_count FROM jobs WHERE id = ?")
      .bind(jobId)
      .first<{ chunk_count: number }>();
    const variants = await env.DB.prepare("SELECT COUNT(*) AS n FROM variants WHERE sku LIKE ?")
      .bind(`${run}-S%`)
      .first<{ n: number }>();
    expect(variants?.n).toBe(
      Array.from({ length: planner.total }).reduce<number>((n, _r, i) => n + 2 + (i % 2), 0),
    );
    const seconds = (finished - started) / 1000;
    console.log(
      JSON.stringify(
        {
          payload_bytes: bytes,
          products: PRODUCTS,
          variants: variants?.n,
          chunks: row?.chunk_count,
          records_per_chunk: CHUNK_MAX_RECORDS,
          accept_ms: accepted - started,
          wall_seconds: seconds,
          records_per_second: Math.round(PRODUCTS / seconds),
          first_chunk: {
            statements_in_batch: statements.length,
            largest_bound_param_bytes: largestParam,
            longest_sql_bytes: longestSql,
            most_params_in_a_statement: maxParams,
          },
        },
        null,
        2,
      ),
    );
    // D1: statement text ≤ 100 KB, ≤ 100 bound parameters, strings ≤ 1 MB (2 MB on newer limits).
    expect(longestSql).toBeLessThan(100_000);
    expect(maxParams).toBeLessThanOrEqual(100);
    expect(largestParam).toBeLessThan(1_000_000);
  }, 300_000);
});
