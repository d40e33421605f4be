import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ids, roundTrips } from "../support/answers.ts";
import { api } from "../support/api.ts";
import {
  createBrandRow,
  createCategoryRow,
  createProduct,
  createSupplierRow,
} from "../support/factories/catalog.ts";
import { unique } from "../support/unique.ts";

interface Discount {
  discount: string;
  categories?: number[];
  brands?: number[];
}

const body = (overrides: Record<string, unknown> = {}) => ({
  internal_id: unique("PL"),
  is_active: true,
  global_discount: "5",
  category_discounts: [] as Discount[],
  brand_discounts: [] as Discount[],
  ...overrides,
});

async function createList(overrides: Record<string, unknown> = {}) {
  const res = await api("/api/v1/price-lists", { method: "POST", body: body(overrides) });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as Record<string, any> & { id: number; internal_id: string };
}

/** Fixed prices written directly (the bulk job that writes them lives elsewhere). */
async function addPrices(
  listId: number,
  entries: { variantId: number; amount?: string; min?: number; factor?: number }[],
) {
  await env.DB.batch(
    entries.map((e) =>
      env.DB.prepare(
        "INSERT INTO price_list_variant_prices (price_list_id, variant_id, amount, currency, min_quantity, quantity_factor) VALUES (?, ?, ?, 'EUR', ?, ?)",
      ).bind(listId, e.variantId, e.amount ?? "9.99", e.min ?? 1, e.factor ?? 1),
    ),
  );
}

async function addCustomers(listId: number, n: number) {
  for (let i = 0; i < n; i++) {
    const email = `${unique("c")}@example.test`;
    const row = await env.DB.prepare("INSERT INTO contacts (email) VALUES (?) RETURNING id")
      .bind(email)
      .first<{ id: number }>();
    await env.DB.prepare("INSERT INTO price_list_customers (price_list_id, contact_id) VALUES (?, ?)")
      .bind(listId, row?.id)
      .run();
  }
}

const errorPaths = (res: { json: { errors: { path: string }[] } }) =>
  res.json.errors.map((e) => e.path).sort();

describe("price list create", () => {
  it("answers 201 with Location and the default representation, at 2 decimals", async () => {
    const category = await createCategoryRow(null, "Zapatillas");
    const brand = await createBrandRow("Acme PL");
    const res = await api("/api/v1/price-lists", {
      method: "POST",
      body: body({
        internal_id: "PL-CREATE-1",
        global_discount: "10.5",
        category_discounts: [{ categories: [category], discount: "7" }],
        brand_discounts: [{ brands: [brand], discount: "-2.5" }],
        minimum_order_amount: { amount: "150", currency: "EUR" },
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`https://api.test/api/v1/price-lists/${res.json.id}`);
    expect(res.json).toEqual({
      id: expect.any(Number),
      internal_id: "PL-CREATE-1",
      is_active: true,
      minimum_order_amount: { amount: "150.00", currency: "EUR" },
      customers_count: 0,
      variant_prices_count: 0,
      global_discount: "10.50",
      category_discounts: [
        {
          categories: [
            {
              id: category,
              internal_id: null,
              translations: {
                "es-ES": { name: "Zapatillas", url: `https://es.shop.test/cat-${category}` },
              },
            },
          ],
          discount: "7.00",
        },
      ],
      brand_discounts: [
        {
          brands: [
            {
              id: brand,
              name: "Acme PL",
              internal_id: null,
              translations: { "es-ES": { url: `https://es.shop.test/brand-${brand}` } },
            },
          ],
          discount: "-2.50",
        },
      ],
    });
  });

  it("answers minimum_order_amount null when it is not sent", async () => {
    const list = await createList();
    expect(list.minimum_order_amount).toBeNull();
  });

  it("keeps the order of discounts and of their categories", async () => {
    const [a, b, c] = [await createCategoryRow(), await createCategoryRow(), await createCategoryRow()];
    const list = await createList({
      category_discounts: [
        { categories: [c, a], discount: "1" },
        { categories: [b], discount: "2" },
      ],
    });
    expect(
      list.category_discounts.map((d: { categories: { id: number }[]; discount: string }) => [
        d.categories.map((x) => x.id),
        d.discount,
      ]),
    ).toEqual([
      [[c, a], "1.00"],
      [[b], "2.00"],
    ]);
  });

  it("refuses a duplicate internal_id with 409", async () => {
    const list = await createList();
    const res = await api("/api/v1/price-lists", {
      method: "POST",
      body: body({ internal_id: list.internal_id }),
    });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("conflict");
    expect(res.json.errors).toEqual([{ location: "body", path: "internal_id", message: expect.any(String) }]);
  });

  it("accepts percentages with up to 3 integer digits and 2 decimals within -100..100", async () => {
    const category = await createCategoryRow();
    for (const [value, scaled] of [
      ["100", "100.00"],
      ["-12.5", "-12.50"],
      ["0.99", "0.99"],
      ["-100", "-100.00"],
    ]) {
      const list = await createList({
        global_discount: value,
        category_discounts: [{ categories: [category], discount: value }],
      });
      expect(list.global_discount, value).toBe(scaled);
      expect(list.category_discounts[0].discount, value).toBe(scaled);
    }
  });

  it("refuses percentages out of format or range, and JSON numbers", async () => {
    const category = await createCategoryRow();
    const brand = await createBrandRow();
    for (const value of ["1000", "12.345", "101", "100.01", "+5", "", "abc", 101, 12.5, 5]) {
      const res = await api("/api/v1/price-lists", {
        method: "POST",
        body: body({
          global_discount: value,
          category_discounts: [{ categories: [category], discount: value }],
          brand_discounts: [{ brands: [brand], discount: value }],
        }),
      });
      expect(res.status, String(value)).toBe(400);
      expect(res.json.code).toBe("invalid_body");
      expect(errorPaths(res), String(value)).toEqual([
        "brand_discounts.0.discount",
        "category_discounts.0.discount",
        "global_discount",
      ]);
    }
  });

  it("refuses a minimum_order_amount in another currency or with a bad amount", async () => {
    for (const amount of [
      { amount: "10.00", currency: "GBP" },
      { amount: "10.001", currency: "EUR" },
      { amount: 10, currency: "EUR" },
      { amount: "10.00" },
    ]) {
      const res = await api("/api/v1/price-lists", {
        method: "POST",
        body: body({ minimum_order_amount: amount }),
      });
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.json.code).toBe("invalid_body");
      expect(res.json.errors[0].path).toMatch(/^minimum_order_amount\.(amount|currency)$/);
    }
  });

  it("requires internal_id, is_active, global_discount and both discount arrays", async () => {
    const res = await api("/api/v1/price-lists", { method: "POST", body: {} });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual([
      "brand_discounts",
      "category_discounts",
      "global_discount",
      "internal_id",
      "is_active",
    ]);
  });

  it("refuses internal_id over 100 characters and an empty categories list", async () => {
    const res = await api("/api/v1/price-lists", {
      method: "POST",
      body: body({ internal_id: "x".repeat(101), category_discounts: [{ categories: [], discount: "1" }] }),
    });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(["category_discounts.0.categories", "internal_id"]);
  });

  it("refuses unknown category and brand ids with one error per bad reference, saving nothing", async () => {
    const category = await createCategoryRow();
    const brand = await createBrandRow();
    const internal_id = unique("PL-BADREF");
    const res = await api("/api/v1/price-lists", {
      method: "POST",
      body: body({
        internal_id,
        category_discounts: [
          { categories: [category], discount: "1" },
          { categories: [category, 99999991, 99999992], discount: "2" },
        ],
        brand_discounts: [{ brands: [99999993, brand], discount: "3" }],
      }),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(errorPaths(res)).toEqual([
      "brand_discounts.0.brands.0",
      "category_discounts.1.categories.1",
      "category_discounts.1.categories.2",
    ]);
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM price_lists WHERE internal_id = ?")
      .bind(internal_id)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});

describe("price list read", () => {
  it("answers 404 not_found for an unknown price list", async () => {
    const res = await api("/api/v1/price-lists/99999999");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });

  it("counts the list's customers and fixed variant prices", async () => {
    const list = await createList();
    const { variantIds } = await createProduct({ variants: [{}, {}, {}] });
    await addPrices(
      list.id,
      variantIds.map((variantId) => ({ variantId })),
    );
    await addCustomers(list.id, 2);
    const res = await api(`/api/v1/price-lists/${list.id}`);
    expect(res.json.customers_count).toBe(2);
    expect(res.json.variant_prices_count).toBe(3);
  });

  it("renders nested categories and brands in every requested locale", async () => {
    const category = await createCategoryRow(null, "Camisetas");
    await env.DB.prepare(
      "INSERT INTO category_translations (category_id, locale, name, slug) VALUES (?, 'en-GB', 'T-shirts', ?)",
    )
      .bind(category, `t-shirts-${category}`)
      .run();
    const brand = await createBrandRow();
    const list = await createList({
      category_discounts: [{ categories: [category], discount: "5" }],
      brand_discounts: [{ brands: [brand], discount: "5" }],
    });
    const res = await api(`/api/v1/price-lists/${list.id}?locales=en-GB,fr-FR,it-IT`);
    expect(res.json.category_discounts[0].categories[0].translations).toEqual({
      "en-GB": { name: "T-shirts", url: `https://en.shop.test/t-shirts-${category}` },
      "fr-FR": { name: null, url: null },
      "it-IT": { name: null, url: null },
    });
    expect(res.json.brand_discounts[0].brands[0].translations).toEqual({
      "en-GB": { url: `https://en.shop.test/brand-${brand}` },
      "fr-FR": { url: `https://fr.shop.test/brand-${brand}` },
      "it-IT": { url: null },
    });
    const all = await api(`/api/v1/price-lists/${list.id}?locales=ALL`);
    expect(Object.keys(all.json.category_discounts[0].categories[0].translations)).toHaveLength(14);
  });

  it("returns the fixed field plus exactly the listed ones with fields, nested objects unchanged", async () => {
    const category = await createCategoryRow();
    const list = await createList({ category_discounts: [{ categories: [category], discount: "5" }] });
    const res = await api(`/api/v1/price-lists/${list.id}?fields=category_discounts,is_active`);
    expect(Object.keys(res.json).sort()).toEqual(["category_discounts", "id", "is_active"]);
    expect(Object.keys(res.json.category_discounts[0].categories[0]).sort()).toEqual([
      "id",
      "internal_id",
      "translations",
    ]);
    const bad = await api(`/api/v1/price-lists/${list.id}?fields=name`);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe("invalid_parameter");
  });

  it("filters by internal_ids, is_active and price_list_ids", async () => {
    const active = await createList({ is_active: true });
    const inactive = await createList({ is_active: false });
    const both = `price_list_ids=${active.id},${inactive.id}`;
    expect(ids(await api(`/api/v1/price-lists?${both}`))).toEqual([active.id, inactive.id]);
    expect(ids(await api(`/api/v1/price-lists?${both}&is_active=false`))).toEqual([inactive.id]);
    expect(ids(await api(`/api/v1/price-lists?${both}&is_active=true`))).toEqual([active.id]);
    expect(ids(await api(`/api/v1/price-lists?internal_ids=${inactive.internal_id}`))).toEqual([inactive.id]);
    expect((await api("/api/v1/price-lists?is_active=yes")).status).toBe(400);
  });

  it("sorts by id_asc by default and by id_desc", async () => {
    const a = await createList();
    const b = await createList();
    const q = `price_list_ids=${a.id},${b.id}`;
    expect(ids(await api(`/api/v1/price-lists?${q}`))).toEqual([a.id, b.id]);
    expect(ids(await api(`/api/v1/price-lists?${q}&sort=id_desc`))).toEqual([b.id, a.id]);
    expect((await api(`/api/v1/price-lists?${q}&sort=name_asc`)).status).toBe(400);
  });

  it("costs the same few D1 round trips for 1 or 100 price lists with nested objects and locales=ALL", async () => {
    const category = await createCategoryRow();
    const brand = await createBrandRow();
    for (let i = 0; i < 6; i++) {
      await createList({
        category_discounts: [{ categories: [category], discount: "1" }],
        brand_discounts: [{ brands: [brand], discount: "1" }],
      });
    }
    await api("/api/v1/price-lists"); // warm the store settings cache
    const one = await api("/api/v1/price-lists?per_page=1&locales=ALL");
    const many = await api("/api/v1/price-lists?per_page=100&locales=ALL");
    expect(many.json.data.length).toBeGreaterThanOrEqual(6);
    expect(roundTrips(one.headers)).toBe(roundTrips(many.headers));
    // The page with its loaders in one round trip; the nested categories and brands in one more.
    expect(roundTrips(many.headers)).toBe(2);
  });
});

describe("price list update", () => {
  it("changes only the fields sent", async () => {
    const category = await createCategoryRow();
    const list = await createList({
      global_discount: "3",
      category_discounts: [{ categories: [category], discount: "4" }],
      minimum_order_amount: { amount: "50", currency: "EUR" },
    });
    const res = await api(`/api/v1/price-lists/${list.id}`, { method: "PATCH", body: { is_active: false } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...list, is_active: false });
  });

  it("replaces a sent discount array whole, and [] clears it", async () => {
    const [a, b] = [await createCategoryRow(), await createCategoryRow()];
    const brand = await createBrandRow();
    const list = await createList({
      category_discounts: [
        { categories: [a], discount: "1" },
        { categories: [b], discount: "2" },
      ],
      brand_discounts: [{ brands: [brand], discount: "3" }],
    });
    const replaced = await api(`/api/v1/price-lists/${list.id}`, {
      method: "PATCH",
      body: { category_discounts: [{ categories: [b, a], discount: "9.9" }] },
    });
    expect(replaced.status).toBe(200);
    expect(
      replaced.json.category_discounts.map((d: { categories: { id: number }[]; discount: string }) => [
        d.categories.map((x) => x.id),
        d.discount,
      ]),
    ).toEqual([[[b, a], "9.90"]]);
    expect(replaced.json.brand_discounts).toEqual(list.brand_discounts);
    const cleared = await api(`/api/v1/price-lists/${list.id}`, {
      method: "PATCH",
      body: { category_discounts: [], brand_discounts: [] },
    });
    expect(cleared.json.category_discounts).toEqual([]);
    expect(cleared.json.brand_discounts).toEqual([]);
    const rows = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM price_list_discounts WHERE price_list_id = ?",
    )
      .bind(list.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("clears minimum_order_amount with null and refuses null for required fields", async () => {
    const list = await createList({ minimum_order_amount: { amount: "50", currency: "EUR" } });
    const cleared = await api(`/api/v1/price-lists/${list.id}`, {
      method: "PATCH",
      body: { minimum_order_amount: null },
    });
    expect(cleared.json.minimum_order_amount).toBeNull();
    const res = await api(`/api/v1/price-lists/${list.id}`, {
      method: "PATCH",
      body: {
        internal_id: null,
        is_active: null,
        global_discount: null,
        category_discounts: null,
        brand_discounts: null,
      },
    });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual([
      "brand_discounts",
      "category_discounts",
      "global_discount",
      "internal_id",
      "is_active",
    ]);
  });

  it("does not touch fixed variant prices", async () => {
    const list = await createList();
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    await addPrices(
      list.id,
      variantIds.map((variantId) => ({ variantId })),
    );
    const res = await api(`/api/v1/price-lists/${list.id}`, {
      method: "PATCH",
      body: { global_discount: "1", category_discounts: [], brand_discounts: [] },
    });
    expect(res.json.variant_prices_count).toBe(2);
  });

  it("refuses an internal_id another price list uses with 409", async () => {
    const a = await createList();
    const b = await createList();
    const res = await api(`/api/v1/price-lists/${b.id}`, {
      method: "PATCH",
      body: { internal_id: a.internal_id },
    });
    expect(res.status).toBe(409);
    expect(res.json.errors[0].path).toBe("internal_id");
  });

  it("answers 404 for an unknown price list, after body validation", async () => {
    const res = await api("/api/v1/price-lists/99999999", { method: "PATCH", body: { is_active: true } });
    expect(res.status).toBe(404);
    const bad = await api("/api/v1/price-lists/99999999", {
      method: "PATCH",
      body: { brand_discounts: [{ brands: [99999994], discount: "1" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("brand_discounts.0.brands.0");
  });
});

describe("price-list variant prices", () => {
  let list: { id: number };
  let supplier: number;
  let supplierInternal: string;
  let product: { id: number; variantIds: number[] };
  let other: { id: number; variantIds: number[] };

  beforeAll(async () => {
    list = await createList();
    supplierInternal = unique("SUP-VP");
    supplier = await createSupplierRow(supplierInternal);
    product = await createProduct({
      supplierId: supplier,
      names: { "es-ES": "Camiseta" },
      variants: [
        { sku: "vp-sku-a", names: { "es-ES": "Roja M" } },
        { sku: "vp-sku-b", names: {} },
      ],
    });
    other = await createProduct({ variants: [{ sku: "vp-sku-c" }] });
    await addPrices(list.id, [
      { variantId: product.variantIds[0] as number, amount: "12.4", min: 6, factor: 3 },
      { variantId: product.variantIds[1] as number, amount: "13" },
      { variantId: other.variantIds[0] as number, amount: "7.05" },
    ]);
  });

  const variantIdsOf = (res: { json: { data: { variant_id: number }[] } }) =>
    res.json.data.map((x) => x.variant_id);
  const path = () => `/api/v1/price-lists/${list.id}/variant-prices`;

  it("lists each fixed price with its variant, product and supplier identifiers", async () => {
    const res = await api(path());
    expect(res.status).toBe(200);
    expect(res.json.pagination).toEqual({ current_page: 1, per_page: 100, total: 3, total_pages: 1 });
    const [first, second] = product.variantIds as [number, number];
    expect(res.json.data[0]).toEqual({
      variant_id: first,
      variant_internal_id: `V-${first}`,
      product_id: product.id,
      product_internal_id: `P-${product.id}`,
      ean: `84${first}`,
      sku: "vp-sku-a",
      supplier_id: supplier,
      supplier_internal_id: supplierInternal,
      display_name: "Roja M",
      price: { amount: "12.40", currency: "EUR" },
      min_quantity: 6,
      quantity_factor: 3,
    });
    expect(res.json.data[1].variant_id).toBe(second);
    expect(res.json.data[2]).toMatchObject({ supplier_id: null, supplier_internal_id: null });
  });

  it("names a variant without a name in the primary locale after its product", async () => {
    const res = await api(`${path()}?variant_ids=${product.variantIds[1]}`);
    expect(res.json.data[0].display_name).toBe("Camiseta");
  });

  it("filters by every documented filter", async () => {
    const [a, b] = product.variantIds as [number, number];
    const c = other.variantIds[0] as number;
    const cases: [string, number[]][] = [
      [`ean=84${a},84${c}`, [a, c]],
      [`product_ids=${other.id}`, [c]],
      [`product_internal_ids=P-${product.id}`, [a, b]],
      ["sku=VP-SKU-A,vp-sku-C", [a, c]],
      [`supplier_id=${supplier}`, [a, b]],
      [`supplier_internal_id=${supplierInternal}`, [a, b]],
      [`variant_ids=${b},${c}`, [b, c]],
      [`variant_internal_ids=V-${a}`, [a]],
      [`variant_internal_ids=V-${a}&product_ids=${other.id}`, []],
    ];
    for (const [q, expected] of cases) {
      const res = await api(`${path()}?${q}`);
      expect(res.status, q).toBe(200);
      expect(variantIdsOf(res), q).toEqual(expected);
    }
  });

  it("refuses a filter over 200 values and a list supplier_id", async () => {
    const many = Array.from({ length: 201 }, (_, i) => i + 1).join(",");
    expect((await api(`${path()}?variant_ids=${many}`)).status).toBe(400);
    const res = await api(`${path()}?supplier_id=1,2`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("supplier_id");
  });

  it("sorts by variant_id_asc by default and by variant_id_desc", async () => {
    const all = [...product.variantIds, ...other.variantIds].sort((x, y) => x - y);
    expect(variantIdsOf(await api(path()))).toEqual(all);
    expect(variantIdsOf(await api(`${path()}?sort=variant_id_desc`))).toEqual([...all].reverse());
    expect((await api(`${path()}?sort=id_asc`)).status).toBe(400);
  });

  it("allows per_page up to 500 and refuses 501", async () => {
    const ok = await api(`${path()}?per_page=500`);
    expect(ok.status).toBe(200);
    expect(ok.json.pagination.per_page).toBe(500);
    // Count, page, the price list's existence and the variant data in one round trip.
    expect(roundTrips(ok.headers)).toBe(1);
    const bad = await api(`${path()}?per_page=501`);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("per_page");
  });

  it("returns variant_id plus exactly the listed fields, and no id", async () => {
    const res = await api(`${path()}?fields=price,sku`);
    expect(Object.keys(res.json.data[0]).sort()).toEqual(["price", "sku", "variant_id"]);
  });

  it("does not take locales or includes", async () => {
    expect((await api(`${path()}?locales=es-ES`)).json.code).toBe("unknown_parameter");
    expect((await api(`${path()}?includes=variant`)).json.code).toBe("unknown_parameter");
  });

  it("answers 404 for an unknown price list, even beyond page 1", async () => {
    for (const q of ["", "?page=2"]) {
      const res = await api(`/api/v1/price-lists/99999999/variant-prices${q}`);
      expect(res.status, q).toBe(404);
      expect(res.json.code, q).toBe("not_found");
    }
  });

  it("answers an empty page for a price list without fixed prices", async () => {
    const empty = await createList();
    const res = await api(`/api/v1/price-lists/${empty.id}/variant-prices`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      pagination: { current_page: 1, per_page: 100, total: 0, total_pages: 0 },
      data: [],
    });
  });
});

describe("delete all variant prices of a price list", () => {
  it("answers the count removed and leaves the configuration unchanged", async () => {
    const category = await createCategoryRow();
    const list = await createList({
      global_discount: "4",
      category_discounts: [{ categories: [category], discount: "2" }],
      minimum_order_amount: { amount: "20", currency: "EUR" },
    });
    const otherList = await createList();
    const { variantIds } = await createProduct({ variants: [{}, {}, {}] });
    await addPrices(
      list.id,
      variantIds.map((variantId) => ({ variantId })),
    );
    await addPrices(otherList.id, [{ variantId: variantIds[0] as number }]);
    const before = (await api(`/api/v1/price-lists/${list.id}`)).json;

    const res = await api(`/api/v1/price-lists/${list.id}/variant-prices`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: 3 });

    const after = (await api(`/api/v1/price-lists/${list.id}`)).json;
    expect(after).toEqual({ ...before, variant_prices_count: 0 });
    expect((await api(`/api/v1/price-lists/${otherList.id}`)).json.variant_prices_count).toBe(1);
    const again = await api(`/api/v1/price-lists/${list.id}/variant-prices`, { method: "DELETE" });
    expect(again.json).toEqual({ deleted: 0 });
  });

  it("answers 404 for an unknown price list", async () => {
    const res = await api("/api/v1/price-lists/99999999/variant-prices", { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });

  it("needs the write scope", async () => {
    const list = await createList();
    const res = await api(`/api/v1/price-lists/${list.id}/variant-prices`, { method: "DELETE", key: "read" });
    expect(res.status).toBe(403);
  });
});

describe("price-list contract", () => {
  it("documents every price-list operation with its schemas", async () => {
    const doc = (await api("/api/v1/openapi.json", { key: null })).json;
    expect(Object.keys(doc.paths["/api/v1/price-lists"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/price-lists/{id}"]).sort()).toEqual(["get", "patch"]);
    expect(Object.keys(doc.paths["/api/v1/price-lists/{id}/variant-prices"]).sort()).toEqual([
      "delete",
      "get",
    ]);
    for (const name of ["PriceList", "PriceListCreate", "PriceListUpdate", "PriceListVariantPrice"]) {
      expect(doc.components.schemas[name]?.example, name).toBeTruthy();
    }
  });
});
