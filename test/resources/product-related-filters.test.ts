import { describe, expect, it } from "vitest";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createCategoryRow, createProduct } from "../support/factories/catalog.ts";

/**
 * A list given a filter through related rows reads from the rows that filter matches (joined to
 * the listed table) rather than testing each listed row: the answer is the same list as the
 * condition's, each row once, in the sort's order, with the same total.
 */
describe("product filters through related rows", () => {
  it("lists a product matched through several related rows once, in the sort's order, with the other filters and its total", async () => {
    const root = await createCategoryRow();
    const leaf = await createCategoryRow(root);
    const a = await createProduct({
      categoryIds: [root, leaf],
      updatedAt: "2026-01-03T00:00:00Z",
      variants: [{ sku: "MATCH-A1" }, { sku: "MATCH-A2" }],
    });
    const b = await createProduct({
      categoryIds: [leaf],
      updatedAt: "2026-01-01T00:00:00Z",
      variants: [{ sku: "MATCH-B1" }],
    });
    const c = await createProduct({
      categoryIds: [root],
      updatedAt: "2026-01-02T00:00:00Z",
      status: "unpublished",
    });
    const skus = "sku=MATCH-A1,MATCH-A2,MATCH-B1";
    const bySku = await api(`/api/v1/products?${skus}&sort=id_desc`);
    expect(ids(bySku)).toEqual([b.id, a.id]);
    expect(bySku.json.pagination).toMatchObject({ total: 2 });
    expect(ids(await api(`/api/v1/products?category_ids=${root}&sort=updated_at_desc`))).toEqual([
      a.id,
      c.id,
      b.id,
    ]);
    const page2 = await api(`/api/v1/products?category_ids=${root}&sort=updated_at_desc&per_page=1&page=2`);
    expect(ids(page2)).toEqual([c.id]);
    expect(page2.json.pagination).toMatchObject({ total: 3 });
    expect(ids(await api(`/api/v1/products?category_ids=${root}&status=unpublished`))).toEqual([c.id]);
    expect(ids(await api(`/api/v1/products?category_ids=${root}&${skus}`))).toEqual([a.id, b.id]);
    expect(ids(await api(`/api/v1/products?${skus}&product_ids=${b.id},${c.id}`))).toEqual([b.id]);
  });
});
