import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CACHE_DOMAINS, generationBump } from "../../src/db/cache-generations.ts";
import { GENERATIONS_TTL_MS } from "../../src/edge/generations.ts";
import { api } from "../support/api.ts";
import { cacheStatus, HIT, MISS } from "../support/edge.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";
import { testDb } from "../support/test-db.ts";
import { unique } from "../support/unique.ts";

afterEach(() => vi.useRealTimers());

const generations = async () =>
  Object.fromEntries(
    (
      await env.DB.prepare("SELECT domain, generation FROM cache_generations").all<{
        domain: string;
        generation: number;
      }>()
    ).results.map((r) => [r.domain, r.generation]),
  );

const newProduct = (internalId: string, name: string) => ({
  internal_id: internalId,
  translations: { "es-ES": { name } },
  variants: [
    { sku: unique("SKU"), prices: { market_es: { list_price: { amount: "10.00", currency: "EUR" } } } },
  ],
});

async function cachedBrand() {
  const res = await api("/api/v1/brands", {
    method: "POST",
    body: { name: unique("Gen brand"), translations: {} },
  });
  const path = `/api/v1/brands/${res.json.id}`;
  await api(path);
  expect(cacheStatus(await api(path))).toBe(HIT);
  return path;
}

describe("invalidation by generation", () => {
  it("a write answers at once on the instance that committed it (the next read is a miss showing it)", async () => {
    const path = await cachedBrand();
    const patched = await api(path, { method: "PATCH", body: { name: "Renamed at once" } });
    expect(patched.status).toBe(200);
    const read = await api(path);
    expect(cacheStatus(read)).toBe(MISS);
    expect(read.json.name).toBe("Renamed at once");
  });

  it("a write in one domain leaves the other domains' entries valid", async () => {
    const path = await cachedBrand();
    await createPriceList(); // price_lists
    const review = await api("/api/v1/reviews", {
      method: "POST",
      body: { type: "store", content: "Fine shop", reviewer_email: "ana@example.test", locale: "es-ES" },
    });
    expect(review.status, review.text).toBe(201); // reviews
    expect(cacheStatus(await api(path))).toBe(HIT);
  });

  it("each committed write bumps its domain once, one row per domain (never a row per changed row)", async () => {
    const createSupplier = () =>
      api("/api/v1/suppliers", { method: "POST", body: { name: unique("S"), internal_id: unique("SUP") } });
    await createSupplier(); // the domain's first bump starts it at a random generation
    const before = await generations();
    await createSupplier();
    const after = await generations();
    expect(after.suppliers).toBe((before.suppliers as number) + 1);
    expect(after.price_lists).toBe(before.price_lists);
    expect(after.products).toBe(before.products);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM cache_generations").first<{ n: number }>();
    expect(rows?.n).toBeLessThanOrEqual(CACHE_DOMAINS.length);
  });

  it("a write refused for an unknown id changes nothing, not even a generation", async () => {
    const before = await generations();
    const supplier = await api("/api/v1/suppliers/987654321", { method: "PATCH", body: { name: "Nobody" } });
    const prices = await api("/api/v1/price-lists/987654321/variant-prices", { method: "DELETE" });
    expect([supplier.status, prices.status]).toEqual([404, 404]);
    expect(await generations()).toEqual(before);
  });

  it("a bulk job's committed chunk bumps products: the product list shows the new product", async () => {
    const internalId = unique("GEN-P");
    const path = `/api/v1/products?internal_ids=${internalId}`;
    const empty = await api(path);
    expect(empty.json.pagination.total).toBe(0);
    expect(cacheStatus(await api(path))).toBe(HIT);
    const before = await generations();
    const job = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [newProduct(internalId, "Gen product")],
        options: { match_by: "internal_id" },
      }),
    );
    expect(job.status).toBe("done");
    expect((await generations()).products).not.toBe(before.products);
    const after = await api(path);
    expect(cacheStatus(after)).toBe(MISS);
    expect(after.json.pagination.total).toBe(1);
  });

  it("a dry run and a job whose records all fail change nothing, so they bump nothing", async () => {
    const before = await generations();
    const dry = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [newProduct(unique("DRY"), "Dry")],
        options: { match_by: "internal_id", dry_run: true },
      }),
    );
    expect(dry.status).toBe("done");
    const failed = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [{ id: 987654321, translations: { "es-ES": { name: "Nobody" } } }],
        options: { match_by: "id" },
      }),
    );
    expect(failed.status).toBe("failed");
    expect((await generations()).products).toBe(before.products);
  });

  it("a price-list bulk job bumps price lists, not products", async () => {
    const listId = await createPriceList();
    const variant = await api("/api/v1/products?per_page=1&includes=variants");
    const before = await generations();
    const sku = variant.json.data[0]?.variants?.[0];
    const job = await waitForJob(
      await submitBulk(`/api/v1/price-lists/${listId}/variant-prices/bulk`, {
        prices: [{ variant_id: sku?.id ?? 1, price: { amount: "5.00", currency_code: "EUR" } }],
        options: { match_by: "variant_id", mode: "upsert" },
      }),
    );
    const after = await generations();
    if (job.status === "done") expect(after.price_lists).not.toBe(before.price_lists);
    expect(after.products).toBe(before.products);
  });

  it(`another instance's write shows within the ${GENERATIONS_TTL_MS} ms freshness bound`, async () => {
    const path = await cachedBrand();
    // Another isolate commits a change and its bump: this isolate learns of it only from D1.
    const id = Number(path.split("/").pop());
    const bump = generationBump(testDb(), ["brands"]).toSQL();
    await env.DB.batch([
      env.DB.prepare("UPDATE brands SET name = 'Renamed elsewhere' WHERE id = ?").bind(id),
      env.DB.prepare(bump.sql).bind(...bump.params),
    ]);
    // Within the bound the isolate may still answer what it had; once the bound has passed, never.
    expect(cacheStatus(await api(path))).toBe(HIT);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + GENERATIONS_TTL_MS);
    const read = await api(path);
    expect(cacheStatus(read)).toBe(MISS);
    expect(read.json.name).toBe("Renamed elsewhere");
  });
});
