import { describe, expect, it } from "vitest";
import { ids, roundTrips } from "../support/answers.ts";
import { api } from "../support/api.ts";
import {
  createBrandRow,
  createCategoryRow,
  createProduct,
  createSupplierRow,
} from "../support/factories/catalog.ts";

describe("product representation", () => {
  it("returns fixed and default fields with translatable ones only under translations", async () => {
    const { id } = await createProduct({ images: ["https://img.test/a.jpg", "https://img.test/b.jpg"] });
    const res = await api(`/api/v1/products/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      [
        "id",
        "internal_id",
        "product_structure",
        "status",
        "product_kind",
        "model_code",
        "tax_category",
        "images",
        "variants_count",
        "translations",
      ].sort(),
    );
    expect(res.json.images).toEqual([
      { id: expect.any(Number), fullsize: "https://img.test/a.jpg", position: 0 },
      { id: expect.any(Number), fullsize: "https://img.test/b.jpg", position: 1 },
    ]);
    expect(Object.keys(res.json.translations["es-ES"]).sort()).toEqual(["name", "slug", "slug_base", "url"]);
    expect(res.json.translations["es-ES"].url).toBe(
      `https://es.shop.test/${res.json.translations["es-ES"].slug}`,
    );
  });

  it("gives every requested locale, null where untranslated", async () => {
    const { id } = await createProduct({ names: { "es-ES": "Camiseta" } });
    const res = await api(`/api/v1/products/${id}?locales=es-ES,it-IT&fields=name`);
    expect(res.json.translations).toEqual({ "es-ES": { name: "Camiseta" }, "it-IT": { name: null } });
  });

  it("embeds each include in its own default representation, not inheriting fields", async () => {
    const brandId = await createBrandRow("Incl Brand");
    const supplierId = await createSupplierRow();
    const root = await createCategoryRow();
    const leaf = await createCategoryRow(root);
    const { id, variantIds } = await createProduct({
      brandId,
      supplierId,
      categoryIds: [leaf, root],
      variants: [{}, {}],
    });
    const res = await api(`/api/v1/products/${id}?fields=status&includes=brand,supplier,categories,variants`);
    expect(res.json.status).toBe("published");
    expect(res.json.internal_id).toBeUndefined();
    expect(res.json.brand).toEqual({
      id: brandId,
      name: "Incl Brand",
      internal_id: null,
      translations: { "es-ES": { url: `https://es.shop.test/brand-${brandId}` } },
    });
    expect(res.json.supplier).toEqual({ name: `Supplier ${supplierId}`, id: supplierId });
    expect(res.json.categories.map((c: { id: number }) => c.id)).toEqual([leaf, root]);
    expect(Object.keys(res.json.categories[0]).sort()).toEqual(["id", "internal_id", "translations"]);
    expect(res.json.variants.map((v: { id: number }) => v.id)).toEqual(variantIds);
    expect(Object.keys(res.json.variants[0]).sort()).toEqual(
      ["available_stock", "ean", "id", "internal_id", "prices", "sku", "status", "translations"].sort(),
    );
  });

  it("renders a missing to-one include as null and a missing to-many as []", async () => {
    const { id } = await createProduct({ brandId: null, supplierId: null, categoryIds: [] });
    const res = await api(`/api/v1/products/${id}?includes=brand,supplier,categories`);
    expect(res.json.brand).toBeNull();
    expect(res.json.supplier).toBeNull();
    expect(res.json.categories).toEqual([]);
  });

  it("refuses an unknown include with 400 invalid_parameter", async () => {
    const res = await api("/api/v1/products?includes=customer");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("reads write-only fields of the bulk payload as non-default fields", async () => {
    const brandId = await createBrandRow();
    const cat = await createCategoryRow();
    const { id } = await createProduct({
      brandId,
      categoryIds: [cat],
      stockManagement: "deny-without-own-stock",
    });
    const res = await api(
      `/api/v1/products/${id}?fields=brand_id,category_ids,stock_management,online_availability`,
    );
    expect(res.json).toEqual({
      id,
      brand_id: brandId,
      category_ids: [cat],
      stock_management: "deny-without-own-stock",
      online_availability: null,
    });
  });
});

describe("product filters", () => {
  it("matches category_ids including descendant categories", async () => {
    const root = await createCategoryRow();
    const mid = await createCategoryRow(root);
    const leaf = await createCategoryRow(mid);
    const other = await createCategoryRow();
    const a = await createProduct({ categoryIds: [leaf] });
    const b = await createProduct({ categoryIds: [root] });
    await createProduct({ categoryIds: [other] });
    expect(ids(await api(`/api/v1/products?category_ids=${root}`))).toEqual([a.id, b.id]);
    expect(ids(await api(`/api/v1/products?category_ids=${mid}`))).toEqual([a.id]);
  });

  it("matches sku exactly and case-insensitively, and ean exactly", async () => {
    const p = await createProduct({ variants: [{ sku: "Red-Shirt-XL-77", ean: "8400000000777" }] });
    expect(ids(await api("/api/v1/products?sku=red-shirt-xl-77"))).toEqual([p.id]);
    expect(ids(await api("/api/v1/products?sku=red-shirt"))).toEqual([]);
    expect(ids(await api("/api/v1/products?ean=8400000000777"))).toEqual([p.id]);
  });

  it("matches supplier_ids, brand_ids, status, product_structure and internal_ids", async () => {
    const supplierId = await createSupplierRow();
    const brandId = await createBrandRow();
    const a = await createProduct({ supplierId, brandId, status: "unpublished", variants: [{}, {}] });
    const b = await createProduct({ supplierId, internalId: "PF-INTERNAL-B" });
    expect(ids(await api(`/api/v1/products?supplier_ids=${supplierId}`))).toEqual([a.id, b.id]);
    expect(ids(await api(`/api/v1/products?brand_ids=${brandId}`))).toEqual([a.id]);
    expect(ids(await api(`/api/v1/products?supplier_ids=${supplierId}&status=unpublished`))).toEqual([a.id]);
    expect(
      ids(await api(`/api/v1/products?supplier_ids=${supplierId}&product_structure=with-variants`)),
    ).toEqual([a.id]);
    expect(ids(await api("/api/v1/products?internal_ids=PF-INTERNAL-B"))).toEqual([b.id]);
    expect((await api("/api/v1/products?product_structure=with_variants")).status).toBe(400);
  });

  it("filters updated_at with inclusive bounds and date-only values", async () => {
    const supplierId = await createSupplierRow();
    const early = await createProduct({ supplierId, updatedAt: "2026-03-01T00:00:00Z" });
    const late = await createProduct({ supplierId, updatedAt: "2026-03-02T23:59:59Z" });
    const q = `supplier_ids=${supplierId}`;
    expect(ids(await api(`/api/v1/products?${q}&updated_at_from=2026-03-01T00:00:00Z`))).toEqual([
      early.id,
      late.id,
    ]);
    expect(ids(await api(`/api/v1/products?${q}&updated_at_to=2026-03-01`))).toEqual([early.id]);
    expect(
      ids(await api(`/api/v1/products?${q}&updated_at_from=2026-03-02&updated_at_to=2026-03-02`)),
    ).toEqual([late.id]);
    expect(ids(await api(`/api/v1/products?${q}&updated_at_from=2026-03-02T01:00:00%2B02:00`))).toEqual([
      late.id,
    ]);
  });

  it("refuses bad dates, from after to, and over-limit category_ids", async () => {
    expect((await api("/api/v1/products?created_at_from=2026-13-01")).status).toBe(400);
    expect((await api("/api/v1/products?created_at_from=2026-01-01T10:00:00")).status).toBe(400);
    expect((await api("/api/v1/products?created_at_from=2026-02-01&created_at_to=2026-01-01")).status).toBe(
      400,
    );
    const many = Array.from({ length: 51 }, (_, i) => i + 1).join(",");
    expect((await api(`/api/v1/products?category_ids=${many}`)).status).toBe(400);
  });

  it("sorts by translated name and by created_at both ways", async () => {
    const supplierId = await createSupplierRow();
    const b = await createProduct({
      supplierId,
      names: { "es-ES": "Bravo" },
      createdAt: "2026-01-01T00:00:00Z",
    });
    const a = await createProduct({
      supplierId,
      names: { "es-ES": "Alfa" },
      createdAt: "2026-01-02T00:00:00Z",
    });
    const q = `supplier_ids=${supplierId}`;
    expect(ids(await api(`/api/v1/products?${q}&sort=name_asc`))).toEqual([a.id, b.id]);
    expect(ids(await api(`/api/v1/products?${q}&sort=name_desc`))).toEqual([b.id, a.id]);
    expect(ids(await api(`/api/v1/products?${q}&sort=created_at_asc`))).toEqual([b.id, a.id]);
    expect(ids(await api(`/api/v1/products?${q}&sort=created_at_desc`))).toEqual([a.id, b.id]);
  });
});

describe("variants of a product", () => {
  it("returns selling_price per market of the requested locales, one entry for locales sharing a market", async () => {
    const { id } = await createProduct({
      variants: [{ prices: { market_es: { list: "20.00", offer: "15.5" }, market_en: { list: "18.00" } } }],
    });
    const res = await api(`/api/v1/products/${id}/variants?locales=es-ES,ca-ES,en-GB,fr-FR`);
    expect(res.status).toBe(200);
    expect(res.json.data[0].prices).toEqual({
      market_es: { selling_price: { amount: "15.50", currency: "EUR" } },
      market_en: { selling_price: { amount: "18.00", currency: "GBP" } },
      market_fr: null,
    });
  });

  it("sells at the flash price only inside its window", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { id } = await createProduct({
      variants: [
        {
          prices: {
            market_es: { list: "20.00", flash: { price: "9.99", from: "2020-01-01", until: today } },
          },
        },
        {
          prices: {
            market_es: {
              list: "20.00",
              offer: "17.00",
              flash: { price: "9.99", from: "2020-01-01", until: "2020-12-31" },
            },
          },
        },
      ],
    });
    const res = await api(`/api/v1/products/${id}/variants`);
    expect(
      res.json.data.map(
        (v: { prices: { market_es: { selling_price: { amount: string } } } }) =>
          v.prices.market_es.selling_price.amount,
      ),
    ).toEqual(["9.99", "17.00"]);
  });

  it("gives the whole market object with fields=prices", async () => {
    const { id } = await createProduct({
      variants: [
        {
          prices: {
            market_de: { list: "30", flash: { price: "25", from: "2030-01-01", until: "2030-01-31" } },
          },
        },
      ],
    });
    const res = await api(`/api/v1/products/${id}/variants?fields=prices&locales=de-DE`);
    expect(res.json.data[0]).toEqual({
      id: expect.any(Number),
      prices: {
        market_de: {
          selling_price: { amount: "30.00", currency: "EUR" },
          list_price: { amount: "30.00", currency: "EUR" },
          offer_price: null,
          flash_offer: {
            price: { amount: "25.00", currency: "EUR" },
            valid_from: "2030-01-01",
            valid_until: "2030-01-31",
          },
        },
      },
    });
  });

  it("counts only warehouse stock under deny-without-own-stock", async () => {
    const own = await createProduct({
      stockManagement: "deny-without-own-stock",
      variants: [{ warehouseStock: 2, supplierStock: 7 }],
    });
    const any = await createProduct({ variants: [{ warehouseStock: 2, supplierStock: 7 }] });
    expect((await api(`/api/v1/products/${own.id}/variants`)).json.data[0].available_stock).toBe(2);
    expect((await api(`/api/v1/products/${any.id}/variants`)).json.data[0].available_stock).toBe(9);
  });

  it("returns stocks, quantities and cost price as fields", async () => {
    const { id } = await createProduct({
      variants: [{ warehouseStock: 4, supplierStock: 1, costPrice: "3.5" }],
    });
    const res = await api(
      `/api/v1/products/${id}/variants?fields=warehouse_stock,supplier_stock,min_quantity,quantity_factor,cost_price`,
    );
    expect(res.json.data[0]).toEqual({
      id: expect.any(Number),
      warehouse_stock: 4,
      supplier_stock: 1,
      min_quantity: 1,
      quantity_factor: 1,
      cost_price: { amount: "3.50", currency: "EUR" },
    });
  });

  it("answers 404 for an unknown product", async () => {
    const res = await api("/api/v1/products/99999999/variants");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });
});

describe("query cost", () => {
  it("costs the same few D1 round trips for 1 or 100 products with every include and locales=ALL", async () => {
    const brandId = await createBrandRow();
    const supplierId = await createSupplierRow();
    const cat = await createCategoryRow();
    for (let i = 0; i < 12; i++)
      await createProduct({ brandId, supplierId, categoryIds: [cat], variants: [{}, {}, {}] });
    const q = "includes=variants,brand,categories,supplier&locales=ALL";
    await api(`/api/v1/products?${q}`); // warm the store settings cache
    const one = await api(`/api/v1/products?${q}&per_page=1`);
    const many = await api(`/api/v1/products?${q}&per_page=100`);
    expect(many.json.data.length).toBeGreaterThanOrEqual(12);
    expect(roundTrips(one.headers)).toBe(roundTrips(many.headers));
    // Count, page, translations, images, every include and what the included rows render: one batch.
    expect(roundTrips(many.headers)).toBe(1);
  });

  it("reads a page sorted by name before loading by its ids: 2 round trips", async () => {
    for (let i = 0; i < 3; i++) await createProduct({ variants: [{}] });
    const q = "includes=variants,brand&locales=ALL";
    await api(`/api/v1/products?${q}`); // warm the store settings cache
    const byName = await api(`/api/v1/products?${q}&sort=name_asc&per_page=2`);
    expect(byName.status).toBe(200);
    expect(byName.json.data).toHaveLength(2);
    expect(byName.json.data[0].variants.length).toBeGreaterThan(0);
    expect(roundTrips(byName.headers)).toBe(2);
    const byId = await api(`/api/v1/products?${q}&sort=id_desc&per_page=2`);
    expect(roundTrips(byId.headers)).toBe(1);
  });

  it("costs one D1 round trip for one product with its variants, prices and two locales", async () => {
    const { id } = await createProduct({ variants: [{}, {}] });
    const res = await api(`/api/v1/products/${id}?includes=variants&locales=es-ES,en-GB`);
    expect(res.status).toBe(200);
    expect(res.json.variants).toHaveLength(2);
    expect(roundTrips(res.headers)).toBe(1);
  });
});
