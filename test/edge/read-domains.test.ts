import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { cacheStatus, changedOutsideTheService, HIT, MISS } from "../support/edge.ts";
import { createBrandRow, createCategoryRow, createProduct } from "../support/factories/catalog.ts";
import { unique } from "../support/unique.ts";

/** Reads `path` twice: the second answer must come from the cache. */
async function cached(path: string) {
  await api(path);
  const again = await api(path);
  expect(cacheStatus(again), path).toBe(HIT);
  return again;
}

/** Moves category `id` under `parentId` (null: to the top). */
const moveCategory = async (id: number, parentId: number | null) => {
  const moved = await api(`/api/v1/categories/${id}`, { method: "PATCH", body: { parent_id: parentId } });
  expect(moved.status, moved.text).toBe(200);
};

/** Reads `path` right after a write that ended it: computed now, showing `total` products. */
async function endedShowing(path: string, total: number) {
  const after = await api(path);
  expect(cacheStatus(after), path).toBe(MISS);
  expect(after.json.pagination.total, path).toBe(total);
}

const renameBrand = async (id: number, name: string) =>
  expect((await api(`/api/v1/brands/${id}`, { method: "PATCH", body: { name } })).status).toBe(200);

describe("an answer is keyed by the domains it reads, includes asked for among them", () => {
  it("a brand renamed leaves a product page that does not embed brands cached", async () => {
    const brandId = await createBrandRow();
    const { id } = await createProduct({ brandId });
    const path = `/api/v1/products/${id}?includes=variants`;
    const before = await cached(path);
    await renameBrand(brandId, unique("Renamed"));
    const after = await api(path);
    expect(cacheStatus(after)).toBe(HIT);
    expect(after.text).toBe(before.text);
  });

  it("a product page with includes=brand shows the renamed brand at once", async () => {
    const brandId = await createBrandRow();
    const { id } = await createProduct({ brandId });
    const path = `/api/v1/products/${id}?includes=brand`;
    await cached(path);
    const name = unique("Renamed");
    await renameBrand(brandId, name);
    const after = await api(path);
    expect(cacheStatus(after)).toBe(MISS);
    expect(after.json.brand.name).toBe(name);
  });

  it("every include asked for counts, in one parameter or repeated", async () => {
    const brandId = await createBrandRow();
    const { id } = await createProduct({ brandId });
    const path = `/api/v1/products/${id}?includes=variants,brand`;
    await cached(path);
    await renameBrand(brandId, unique("Renamed"));
    expect(cacheStatus(await api(path))).toBe(MISS);
  });

  it("a product list follows the category tree its filter walks: a category moved under another shows at once", async () => {
    const parent = await createCategoryRow();
    const child = await createCategoryRow();
    await createProduct({ categoryIds: [child] });
    const path = `/api/v1/products?category_ids=${parent}`;
    const before = await cached(path);
    expect(before.json.pagination.total).toBe(0);
    const moved = await api(`/api/v1/categories/${child}`, { method: "PATCH", body: { parent_id: parent } });
    expect(moved.status, moved.text).toBe(200);
    const after = await api(path);
    expect(cacheStatus(after)).toBe(MISS);
    expect(after.json.pagination.total).toBe(1);
  });

  it("a category renamed leaves product lists cached, those filtered by category_ids too", async () => {
    const category = await createCategoryRow();
    await createProduct({ categoryIds: [category] });
    const paths = [`/api/v1/products?category_ids=${category}`, "/api/v1/products?per_page=3"];
    for (const path of paths) await cached(path);
    const renamed = await api(`/api/v1/categories/${category}`, {
      method: "PATCH",
      body: { translations: { "es-ES": { name: unique("Cat") } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    for (const path of paths) expect(cacheStatus(await api(path)), path).toBe(HIT);
  });

  it("a category moved leaves product lists that do not filter by category_ids cached", async () => {
    const parent = await createCategoryRow();
    const child = await createCategoryRow();
    const path = "/api/v1/products?per_page=4&sort=id_asc";
    await cached(path);
    const moved = await api(`/api/v1/categories/${child}`, { method: "PATCH", body: { parent_id: parent } });
    expect(moved.status, moved.text).toBe(200);
    expect(cacheStatus(await api(path))).toBe(HIT);
    expect(cacheStatus(await api(`/api/v1/categories/${child}`))).not.toBe(HIT);
  });

  it("a category moved ends the lists of the categories it leaves and joins, and leaves other category lists cached", async () => {
    const [left, joined, apart] = [
      await createCategoryRow(),
      await createCategoryRow(),
      await createCategoryRow(),
    ];
    const moving = await createCategoryRow(left);
    await createProduct({ categoryIds: [moving] });
    await changedOutsideTheService(); // the factories' writes, seen before the first read
    const list = (id: number) => `/api/v1/products?category_ids=${id}&per_page=7`;
    const before = await cached(list(left));
    expect(before.json.pagination.total).toBe(1);
    expect((await cached(list(joined))).json.pagination.total).toBe(0);
    await cached(list(moving));
    await cached(list(apart));
    await moveCategory(moving, joined);
    await endedShowing(list(left), 0);
    await endedShowing(list(joined), 1);
    // Its own subtree and an unrelated category's did not change.
    expect(cacheStatus(await api(list(moving)))).toBe(HIT);
    expect(cacheStatus(await api(list(apart)))).toBe(HIT);
  });

  it("a category moved ends the lists of every ancestor it leaves or joins, grandparents too", async () => {
    const grandparent = await createCategoryRow();
    const parent = await createCategoryRow(grandparent);
    const moving = await createCategoryRow(parent);
    await createProduct({ categoryIds: [moving] });
    const list = `/api/v1/products?category_ids=${grandparent}&per_page=8`;
    expect((await cached(list)).json.pagination.total).toBe(1);
    await moveCategory(moving, null);
    await endedShowing(list, 0);
  });

  it("a list filtered by several categories ends when a move touches any of them", async () => {
    const [a, b, target] = [await createCategoryRow(), await createCategoryRow(), await createCategoryRow()];
    const moving = await createCategoryRow(b);
    await createProduct({ categoryIds: [moving] });
    const list = `/api/v1/products?category_ids=${a},${b}&per_page=9`;
    expect((await cached(list)).json.pagination.total).toBe(1);
    await moveCategory(moving, target);
    await endedShowing(list, 0);
  });

  it("an includes name that is no include (an Object prototype key too) is a 400, never a key error", async () => {
    const { id } = await createProduct();
    for (const name of ["__proto__", "constructor", "nope"]) {
      const res = await api(`/api/v1/products/${id}?includes=${name}`);
      expect(res.status, name).toBe(400);
    }
  });

  it("a category renamed leaves brand pages cached", async () => {
    const brandId = await createBrandRow();
    const category = await createCategoryRow();
    const path = `/api/v1/brands/${brandId}`;
    await cached(path);
    const renamed = await api(`/api/v1/categories/${category}`, {
      method: "PATCH",
      body: { translations: { "es-ES": { name: unique("Cat") } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(cacheStatus(await api(path))).toBe(HIT);
  });
});
