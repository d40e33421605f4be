import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import {
  createBrandRow,
  createCategoryRow,
  createProduct,
  createSupplierRow,
} from "../support/factories/catalog.ts";
import { jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

const newProduct = (overrides: Record<string, unknown> = {}) => ({
  internal_id: unique("BP"),
  translations: { "es-ES": { name: `Camiseta ${unique("n")}` }, "en-GB": { name: "T-shirt" } },
  variants: [
    { sku: unique("SKU"), prices: { market_es: { list_price: { amount: "19.90", currency: "EUR" } } } },
  ],
  ...overrides,
});

describe("products bulk upsert", () => {
  it("creates products with variants, translations, categories, brand and supplier: job done", async () => {
    const brandId = await createBrandRow();
    const supplierId = await createSupplierRow();
    const cat = await createCategoryRow();
    const record = newProduct({
      brand_id: brandId,
      supplier_id: supplierId,
      category_ids: [cat],
      images: [
        { url: "https://img.test/b.jpg", position: 2 },
        { url: "https://img.test/a.jpg", position: 1 },
      ],
      variants: [
        {
          sku: unique("S"),
          internal_id: unique("V"),
          warehouse_stock: 3,
          prices: { market_es: { list_price: { amount: "10", currency: "EUR" } } },
        },
        { sku: unique("S"), prices: { market_en: { list_price: { amount: "9", currency: "GBP" } } } },
      ],
    });
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [record],
      options: { match_by: "internal_id" },
    });
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({
      total_records: 1,
      processed_records: 1,
      succeeded_records: 1,
      failed_records: 0,
    });
    const list = await api(
      `/api/v1/products?internal_ids=${record.internal_id}&includes=variants,brand,supplier,categories&locales=es-ES,en-GB`,
    );
    const product = list.json.data[0];
    expect(product.product_structure).toBe("with-variants");
    expect(product.status).toBe("unpublished");
    expect(product.brand.id).toBe(brandId);
    expect(product.supplier.id).toBe(supplierId);
    expect(product.categories.map((c: { id: number }) => c.id)).toEqual([cat]);
    expect(
      product.images.map((i: { fullsize: string; position: number }) => [i.fullsize, i.position]),
    ).toEqual([
      ["https://img.test/a.jpg", 0],
      ["https://img.test/b.jpg", 1],
    ]);
    expect(product.variants).toHaveLength(2);
    expect(product.translations["en-GB"].name).toBe("T-shirt");
    expect(product.translations["es-ES"].slug).toMatch(/^camiseta-/);
    const logs = await jobLogs(jobId);
    expect(logs.at(-1)).toMatchObject({ severity: "INFO", code: null });
  });

  it("updates by id without creating and reports NOT_FOUND for an unknown id", async () => {
    const created = newProduct();
    const first = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [created],
        options: { match_by: "internal_id" },
      }),
    );
    expect(first.status).toBe("done");
    const id = (await api(`/api/v1/products?internal_ids=${created.internal_id}`)).json.data[0].id;
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        { id, status: "published", model_code: "MC-1" },
        { id: 99999999, status: "published" },
      ],
      options: { match_by: "id" },
    });
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done_with_errors");
    const product = (await api(`/api/v1/products/${id}`)).json;
    expect(product).toMatchObject({ status: "published", model_code: "MC-1" });
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", identifiers: { product: { id: 99999999 } } }),
    ]);
  });

  it("fails a record missing its name or variants with MISSING_REQUIRED_FIELD: all invalid → failed", async () => {
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        { internal_id: unique("X"), translations: {} },
        { translations: { "es-ES": { name: "x" } } },
      ],
      options: { match_by: "internal_id" },
    });
    const job = await waitForJob(jobId);
    expect(job.status).toBe("failed");
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors.map((e) => e.code)).toEqual(["MISSING_REQUIRED_FIELD", "INVALID_IDENTIFIER"]);
    expect(errors[0]?.affected_fields).toEqual(["translations", "variants"]);
    expect(errors[1]?.identifiers).toEqual({ record: { index: 1 } });
  });

  it("keeps good records when a neighbour conflicts on a unique sku (one ERROR per bad record)", async () => {
    const supplierId = await createSupplierRow();
    const sku = unique("DUP");
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        newProduct({ supplier_id: supplierId, variants: [{ sku }] }),
        newProduct({ supplier_id: supplierId, variants: [{ sku: sku.toLowerCase() }] }),
        newProduct({ supplier_id: supplierId }),
      ],
      options: { match_by: "internal_id" },
    });
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({ succeeded_records: 2, failed_records: 1, log_error_count: 1 });
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe("INVALID_FIELD_VALUE");
    expect(errors[0]?.identifiers).toEqual({ product: { internal_id: expect.any(String) } });
    expect(errors[0]?.affected_fields).toEqual(["variants.0.sku"]);
  });

  it("refuses a second variant on a simple product and an invalid currency with INVALID_FIELD_VALUE", async () => {
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        newProduct({ product_structure: "simple", variants: [{ sku: unique("a") }, { sku: unique("b") }] }),
        newProduct({
          variants: [
            { sku: unique("c"), prices: { market_en: { list_price: { amount: "1.00", currency: "EUR" } } } },
          ],
        }),
      ],
      options: { match_by: "internal_id" },
    });
    await waitForJob(jobId);
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors.map((e) => [e.code, e.affected_fields])).toEqual([
      ["INVALID_FIELD_VALUE", ["product_structure"]],
      ["INVALID_FIELD_VALUE", ["variants.0.prices.market_en.list_price.currency"]],
    ]);
  });
});

describe("products bulk upsert: merges and priorities", () => {
  it("updates only the offer price of an existing market of a nested variant", async () => {
    const p = await createProduct({
      variants: [{ prices: { market_es: { list: "20.00", offer: "18.00" } } }],
    });
    const vid = p.variantIds[0] as number;
    const job = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [
          {
            id: p.id,
            variants: [
              { id: vid, prices: { market_es: { offer_price: { amount: "15", currency: "EUR" } } } },
            ],
          },
        ],
        options: { match_by: "id" },
      }),
    );
    expect(job.status).toBe("done");
    const variants = (await api(`/api/v1/products/${p.id}/variants?fields=prices`)).json.data;
    expect(variants[0].prices.market_es).toMatchObject({
      list_price: { amount: "20.00", currency: "EUR" },
      offer_price: { amount: "15.00", currency: "EUR" },
    });
  });

  it("two records for one existing product apply in order: the later sees the earlier's market and locale", async () => {
    const p = await createProduct({ names: { "es-ES": "Base" }, variants: [{}] });
    const vid = p.variantIds[0] as number;
    const job = await waitForJob(
      await submitBulk("/api/v1/products/bulk", {
        products: [
          {
            id: p.id,
            translations: { "fr-FR": { name: "Chemise" } },
            variants: [{ id: vid, prices: { market_fr: { list_price: { amount: "30", currency: "EUR" } } } }],
          },
          {
            id: p.id,
            translations: { "fr-FR": { description: "Coton" } },
            variants: [
              { id: vid, prices: { market_fr: { offer_price: { amount: "25", currency: "EUR" } } } },
            ],
          },
        ],
        options: { match_by: "id" },
      }),
    );
    expect(job.status).toBe("done");
    const product = (
      await api(`/api/v1/products/${p.id}?locales=fr-FR&fields=name,slug,description&includes=variants`)
    ).json;
    expect(product.translations["fr-FR"]).toMatchObject({
      name: "Chemise",
      slug: "chemise",
      description: "Coton",
    });
    const variants = (await api(`/api/v1/products/${p.id}/variants?fields=prices&locales=fr-FR`)).json.data;
    expect(variants[0].prices.market_fr).toMatchObject({
      list_price: { amount: "30.00" },
      offer_price: { amount: "25.00" },
    });
  });

  it("two records replacing one product's images and categories in one chunk: the later set wins", async () => {
    const p = await createProduct({ variants: [{}] });
    const [c1, c2, c3] = [await createCategoryRow(), await createCategoryRow(), await createCategoryRow()];
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        { id: p.id, category_ids: [c1], images: [{ url: "https://img.test/1.jpg" }] },
        {
          id: p.id,
          category_ids: [c2, c3],
          images: [{ url: "https://img.test/2.jpg" }, { url: "https://img.test/3.jpg" }],
        },
      ],
      options: { match_by: "id" },
    });
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    const product = (await api(`/api/v1/products/${p.id}?includes=categories`)).json;
    expect(product.categories.map((c: { id: number }) => c.id)).toEqual([c2, c3]);
    expect(product.images.map((i: { fullsize: string }) => i.fullsize)).toEqual([
      "https://img.test/2.jpg",
      "https://img.test/3.jpg",
    ]);
  });

  it("NOT_FOUND (match_by id) outranks the record's field errors", async () => {
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [{ id: 99999998, status: "gone" }],
      options: { match_by: "id" },
    });
    await waitForJob(jobId);
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", affected_fields: ["status", "id"] }),
    ]);
  });

  it("a new product whose variants are invalid reports the invalid paths, not a missing variant", async () => {
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [newProduct({ variants: [{ sku: 5 }] })],
      options: { match_by: "internal_id" },
    });
    await waitForJob(jobId);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_FIELD_VALUE", affected_fields: ["variants.0.sku"] });
  });
});

describe("bulk acceptance", () => {
  it("answers 202 with [{job_id, status: pending}]", async () => {
    const res = await api("/api/v1/products/bulk", {
      method: "POST",
      body: { products: [newProduct()], options: { match_by: "internal_id" } },
    });
    expect(res.status).toBe(202);
    expect(res.json).toEqual([{ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: "pending" }]);
  });

  it("refuses bad top-level structure with one 400 and creates no job", async () => {
    const before = (await api("/api/v1/jobs?per_page=100")).json.pagination.total;
    for (const body of [
      "{oops",
      [],
      { products: [], options: { match_by: "id" } },
      { products: [1], options: { match_by: "id" } },
      { products: [{}], options: { match_by: "sku" } },
      { products: [{}] },
      { products: [{}], options: { match_by: "id" }, extra: true },
    ]) {
      const res = await api("/api/v1/products/bulk", { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api("/api/v1/jobs?per_page=100")).json.pagination.total).toBe(before);
  });

  it("answers 413 over 10 MiB and creates no job", async () => {
    const big = JSON.stringify({
      products: [{ internal_id: "x", pad: "y".repeat(10 * 1024 * 1024) }],
      options: { match_by: "id" },
    });
    const res = await api("/api/v1/products/bulk", { method: "POST", body: big });
    expect(res.status).toBe(413);
  });

  it("answers 405 for GET on the literal bulk path", async () => {
    const res = await api("/api/v1/products/bulk");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("products bulk upsert: generated slugs", () => {
  it("gives products with the same long name distinct slugs within 100 characters", async () => {
    const name = `Camiseta ${"muy ".repeat(30)}larga ${unique("n")}`;
    const records = [0, 1, 2].map(() => newProduct({ translations: { "es-ES": { name } } }));
    for (const record of records) {
      const job = await waitForJob(
        await submitBulk("/api/v1/products/bulk", {
          products: [record],
          options: { match_by: "internal_id" },
        }),
      );
      expect(job.status).toBe("done");
    }
    const slugs = await Promise.all(
      records.map(async (r) => {
        const res = await api(`/api/v1/products?internal_ids=${r.internal_id}&fields=slug`);
        return res.json.data[0].translations["es-ES"].slug as string;
      }),
    );
    expect(new Set(slugs).size).toBe(3);
    for (const slug of slugs) expect(slug.length).toBeLessThanOrEqual(100);
    expect(slugs[1]).toMatch(/-2$/);
    expect(slugs[2]).toMatch(/-3$/);
  });
});
