import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { STAMP_BUCKETS } from "../../src/db/cache-generations.ts";
import { api } from "../support/api.ts";
import { cacheStatus, changedOutsideTheService, HIT, MISS } from "../support/edge.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";

const page = (id: number) => `/api/v1/products/${id}?includes=variants`;

/** Two products with their pages cached. */
async function twoCachedProducts() {
  const a = await createProduct();
  const b = await createProduct();
  for (const { id } of [a, b]) {
    await api(page(id));
    expect(cacheStatus(await api(page(id)))).toBe(HIT);
  }
  return [a, b] as const;
}

const updateVariants = async (variants: object[]) => {
  const job = await waitForJob(
    await submitBulk("/api/v1/variants/bulk", { variants, options: { match_by: "id" } }),
  );
  expect(job.status).toBe("done");
};

describe("a product's page is keyed by its bucket's stamp, not by every product's generation", () => {
  it("a bulk job ends the cached pages of the products it changed, and leaves the others'", async () => {
    const [a, b] = await twoCachedProducts();
    const before = await api(page(a.id));
    await updateVariants([{ id: a.variantIds[0], warehouse_stock: 4321 }]);
    const changed = await api(page(a.id));
    expect(cacheStatus(changed)).toBe(MISS);
    expect(changed.text).not.toBe(before.text);
    expect(cacheStatus(await api(page(b.id)))).toBe(HIT);
  });

  it("a job whose records all equal what is stored ends no cached page, neither the product's nor a list", async () => {
    const [a] = await twoCachedProducts();
    await updateVariants([{ id: a.variantIds[0], warehouse_stock: 2468 }]);
    const list = "/api/v1/products?per_page=5&sort=id_desc";
    for (const path of [page(a.id), list]) {
      await api(path);
      expect(cacheStatus(await api(path)), path).toBe(HIT);
    }
    await updateVariants([{ id: a.variantIds[0], warehouse_stock: 2468 }]);
    for (const path of [page(a.id), list]) expect(cacheStatus(await api(path)), path).toBe(HIT);
  });

  it("a change to a variant's prices alone ends its product's page", async () => {
    const [a, b] = await twoCachedProducts();
    await updateVariants([
      { id: a.variantIds[0], prices: { market_es: { list_price: { amount: "77.70", currency: "EUR" } } } },
    ]);
    const changed = await api(`${page(a.id)}`);
    expect(cacheStatus(changed)).toBe(MISS);
    expect(changed.text).toContain("77.7");
    expect(cacheStatus(await api(page(b.id)))).toBe(HIT);
  });

  it("a products job ends the pages of the products it updates", async () => {
    const [a, b] = await twoCachedProducts();
    const job = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [{ id: a.id, model_code: "STAMPED-1" }],
        options: { match_by: "id" },
      }),
    );
    expect(job.status).toBe("done");
    const changed = await api(page(a.id));
    expect(cacheStatus(changed)).toBe(MISS);
    expect(changed.json.model_code).toBe("STAMPED-1");
    expect(cacheStatus(await api(page(b.id)))).toBe(HIT);
  });

  it("a bump that names no products ends every product's page", async () => {
    const [a, b] = await twoCachedProducts();
    await changedOutsideTheService();
    expect(cacheStatus(await api(page(a.id)))).toBe(MISS);
    expect(cacheStatus(await api(page(b.id)))).toBe(MISS);
  });

  it("a product list is keyed by the products generation: any product's change ends it", async () => {
    const [a] = await twoCachedProducts();
    const list = "/api/v1/products?per_page=5";
    await api(list);
    expect(cacheStatus(await api(list))).toBe(HIT);
    await updateVariants([{ id: a.variantIds[0], warehouse_stock: 1234 }]);
    expect(cacheStatus(await api(list))).toBe(MISS);
  });

  it("the stamps are one row of one stamp per bucket, whatever the number of products changed", async () => {
    const [a, b] = await twoCachedProducts();
    await updateVariants([
      { id: a.variantIds[0], warehouse_stock: 11 },
      { id: b.variantIds[0], warehouse_stock: 12 },
    ]);
    const row = await env.DB.prepare("SELECT stamps FROM cache_generations WHERE domain = 'products'").first<{
      stamps: string;
    }>();
    const stamps = JSON.parse(row?.stamps ?? "[]") as number[];
    expect(stamps).toHaveLength(STAMP_BUCKETS);
    expect(stamps[a.id % STAMP_BUCKETS]).toBe(stamps[b.id % STAMP_BUCKETS]);
    expect(new Set(stamps).size).toBeGreaterThan(1);
  });
});
