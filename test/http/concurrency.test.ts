import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { createBrandRow, createCategoryRow, createProduct } from "../support/factories/catalog.ts";
import { jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

/**
 * Many requests at once, as a script hammering the API would send them: the worker serves them
 * concurrently in one isolate, interleaving at every D1 round trip.
 */
const PARALLEL = 12;

const parallel = <T>(n: number, make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

async function count(sql: string, ...params: unknown[]) {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Exactly one 201; every other answer a 409 conflict problem naming the field. */
function expectOneCreated(results: Awaited<ReturnType<typeof api>>[], path: string) {
  const statuses = results.map((r) => r.status).sort();
  expect(statuses, JSON.stringify(results.map((r) => r.json))).toEqual([
    201,
    ...Array<number>(results.length - 1).fill(409),
  ]);
  for (const r of results.filter((x) => x.status === 409)) {
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.json.code).toBe("conflict");
    expect(r.json.errors).toContainEqual(expect.objectContaining({ location: "body", path }));
  }
}

describe("parallel creates with the same unique value", () => {
  it("brands: one row per internal_id, 409 for the rest", async () => {
    const internalId = unique("BR");
    const results = await parallel(PARALLEL, (i) =>
      api("/api/v1/brands", {
        method: "POST",
        body: {
          name: `Brand ${i}`,
          internal_id: internalId,
          translations: { "es-ES": { description: `${i}` } },
        },
      }),
    );
    expectOneCreated(results, "internal_id");
    expect(await count("SELECT count(*) AS n FROM brands WHERE internal_id = ?", internalId)).toBe(1);
    // The losers' translations did not survive either: one brand, one translation row.
    const id = results.find((r) => r.status === 201)?.json.id;
    expect(await count("SELECT count(*) AS n FROM brand_translations WHERE brand_id = ?", id)).toBe(1);
  });

  it("brands: one row per supplied slug, 409 for the rest", async () => {
    const slug = unique("slug").toLowerCase();
    const results = await parallel(PARALLEL, (i) =>
      api("/api/v1/brands", { method: "POST", body: { name: `Slugged ${i}`, slug, translations: {} } }),
    );
    expectOneCreated(results, "slug");
    expect(await count("SELECT count(*) AS n FROM brands WHERE slug = ?", slug)).toBe(1);
  });

  it("brands: the same name at once gets distinct generated slugs, all created", async () => {
    const name = unique("Same name");
    const results = await parallel(PARALLEL, () =>
      api("/api/v1/brands?fields=slug", { method: "POST", body: { name, translations: {} } }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(201));
    const slugs = results.map((r) => r.json.slug as string);
    expect(new Set(slugs).size).toBe(PARALLEL);
  });

  it("suppliers: one row per internal_id, 409 for the rest", async () => {
    const internalId = unique("SUP");
    const results = await parallel(PARALLEL, (i) =>
      api("/api/v1/suppliers", { method: "POST", body: { name: `Supplier ${i}`, internal_id: internalId } }),
    );
    expectOneCreated(results, "internal_id");
    expect(await count("SELECT count(*) AS n FROM suppliers WHERE internal_id = ?", internalId)).toBe(1);
  });

  it("price lists: one row per internal_id (with its discounts), 409 for the rest", async () => {
    const internalId = unique("PL");
    const category = await createCategoryRow();
    const brand = await createBrandRow();
    const results = await parallel(PARALLEL, (i) =>
      api("/api/v1/price-lists", {
        method: "POST",
        body: {
          internal_id: internalId,
          is_active: true,
          global_discount: String(i),
          category_discounts: [{ categories: [category], discount: "5" }],
          brand_discounts: [{ brands: [brand], discount: "7.5" }],
        },
      }),
    );
    expectOneCreated(results, "internal_id");
    expect(await count("SELECT count(*) AS n FROM price_lists WHERE internal_id = ?", internalId)).toBe(1);
    const id = results.find((r) => r.status === 201)?.json.id;
    expect(await count("SELECT count(*) AS n FROM price_list_discounts WHERE price_list_id = ?", id)).toBe(2);
    // No discount rows of a losing request hang around without their price list.
    expect(
      await count(
        "SELECT count(*) AS n FROM price_list_discounts WHERE price_list_id NOT IN (SELECT id FROM price_lists)",
      ),
    ).toBe(0);
  });

  it("categories: one row per internal_id, 409 for the rest", async () => {
    const internalId = unique("CAT");
    const results = await parallel(PARALLEL, (i) =>
      api("/api/v1/categories", {
        method: "POST",
        body: {
          status: "published",
          internal_id: internalId,
          translations: { "es-ES": { name: `Cat ${i}` } },
        },
      }),
    );
    expectOneCreated(results, "internal_id");
    expect(await count("SELECT count(*) AS n FROM categories WHERE internal_id = ?", internalId)).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM category_translations WHERE category_id NOT IN (SELECT id FROM categories)",
      ),
    ).toBe(0);
  });

  it("categories: the same name in one locale at once gets distinct generated slugs, all created", async () => {
    const name = unique("Misma categoría");
    const results = await parallel(PARALLEL, () =>
      api("/api/v1/categories?fields=slug", {
        method: "POST",
        body: { status: "published", translations: { "es-ES": { name } } },
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(results.map((r) => r.json.translations["es-ES"].slug)).size).toBe(PARALLEL);
  });
});

describe("parallel PATCHes of one resource", () => {
  /** Every request changes several fields together; the result must carry one request's values throughout. */
  const expectOneOf = (state: Record<string, unknown>, fields: string[], n: number) => {
    const values = fields.map((f) => state[f]);
    const tag = String(values[0]).split("#")[1];
    expect(Number(tag)).toBeGreaterThanOrEqual(0);
    expect(Number(tag)).toBeLessThan(n);
    expect(values, `mixed state ${JSON.stringify(state)}`).toEqual(fields.map((f) => `${f}#${tag}`));
  };

  it("brand: name and a locale's translated fields come from the same request", async () => {
    const created = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("B"), translations: {} },
    });
    const id = created.json.id as number;
    const fields = ["description", "long_name", "meta_title", "meta_description"];
    const results = await parallel(PARALLEL, (i) =>
      api(`/api/v1/brands/${id}`, {
        method: "PATCH",
        body: {
          name: `name#${i}`,
          translations: { "es-ES": Object.fromEntries(fields.map((f) => [f, `${f}#${i}`])) },
        },
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
    const res = await api(`/api/v1/brands/${id}?fields=name,${fields.join(",")}&locales=es-ES`);
    const state = { name: res.json.name, ...res.json.translations["es-ES"] };
    expectOneOf(state, ["name", ...fields], PARALLEL);
  });

  it("category: a locale's name, description and meta fields come from the same request, slug kept", async () => {
    const created = await api("/api/v1/categories?fields=slug", {
      method: "POST",
      body: { status: "published", translations: { "es-ES": { name: unique("Cat") } } },
    });
    const id = created.json.id as number;
    const slug = created.json.translations["es-ES"].slug;
    const fields = ["name", "description", "meta_title", "meta_description"];
    const results = await parallel(PARALLEL, (i) =>
      api(`/api/v1/categories/${id}`, {
        method: "PATCH",
        body: { translations: { "es-ES": Object.fromEntries(fields.map((f) => [f, `${f}#${i}`])) } },
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
    const res = await api(`/api/v1/categories/${id}?fields=${fields.join(",")},slug&locales=es-ES`);
    const state = res.json.translations["es-ES"];
    expectOneOf(state, fields, PARALLEL);
    expect(state.slug).toBe(slug);
  });

  it("category: a new locale added by several requests at once ends with one request's fields", async () => {
    const created = await api("/api/v1/categories", {
      method: "POST",
      body: { status: "published", translations: { "es-ES": { name: unique("Base") } } },
    });
    const id = created.json.id as number;
    const fields = ["name", "description", "meta_title"];
    const base = unique("Nuevo");
    const results = await parallel(PARALLEL, (i) =>
      api(`/api/v1/categories/${id}`, {
        method: "PATCH",
        body: {
          translations: {
            "fr-FR": Object.fromEntries(
              fields.map((f) => [f, f === "name" ? `${base} name#${i}` : `${f}#${i}`]),
            ),
          },
        },
      }),
    );
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.map((r) => r.json)),
    ).toEqual(Array(PARALLEL).fill(200));
    const res = await api(`/api/v1/categories/${id}?fields=${fields.join(",")},slug&locales=fr-FR`);
    const state = res.json.translations["fr-FR"];
    expectOneOf({ ...state, name: String(state.name).replace(`${base} `, "") }, fields, PARALLEL);
    expect(state.slug).toMatch(/^nuevo-/);
  });

  it("price list: a replaced discount array equals one request's array, never a union", async () => {
    const created = await api("/api/v1/price-lists", {
      method: "POST",
      body: {
        internal_id: unique("PL"),
        is_active: true,
        global_discount: "1",
        category_discounts: [],
        brand_discounts: [],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const categories: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api("/api/v1/categories", {
        method: "POST",
        body: { status: "published", translations: { "es-ES": { name: unique("Descuento") } } },
      });
      categories.push(res.json.id);
    }
    const results = await parallel(PARALLEL, (i) =>
      api(`/api/v1/price-lists/${id}`, {
        method: "PATCH",
        body: {
          global_discount: String(i),
          category_discounts: [
            { categories: [categories[i % 3]], discount: String(i) },
            { categories: [categories[(i + 1) % 3]], discount: String(i) },
          ],
        },
      }),
    );
    expect(
      results.map((r) => r.status),
      results[0]?.text,
    ).toEqual(Array(PARALLEL).fill(200));
    const { results: rows } = await env.DB.prepare(
      "SELECT kind, discount FROM price_list_discounts WHERE price_list_id = ? ORDER BY position",
    )
      .bind(id)
      .all<{ kind: string; discount: string }>();
    const list = await api(`/api/v1/price-lists/${id}?fields=global_discount`);
    const winner = Number.parseFloat(list.json.global_discount);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => Number.parseFloat(r.discount))).toEqual([winner, winner]);
  });

  it("supplier: name and description come from the same request", async () => {
    const created = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "S", internal_id: unique("SUP") },
    });
    const id = created.json.id as number;
    const results = await parallel(PARALLEL, (i) =>
      api(`/api/v1/suppliers/${id}`, {
        method: "PATCH",
        body: { name: `name#${i}`, description: `description#${i}` },
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
    const res = await api(`/api/v1/suppliers/${id}?fields=description`);
    expectOneOf(res.json, ["name", "description"], PARALLEL);
  });
});

describe("idempotent retries under concurrency", () => {
  it("the same POST with the same Idempotency-Key at once creates one brand", async () => {
    const name = unique("Idem brand");
    const key = unique("idem");
    const body = { name, translations: { "es-ES": { description: "once" } } };
    const results = await parallel(PARALLEL, () =>
      api("/api/v1/brands", { method: "POST", body, headers: { "Idempotency-Key": key } }),
    );
    expect(await count("SELECT count(*) AS n FROM brands WHERE name = ?", name)).toBe(1);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const id = created.find((r) => r.headers.get("idempotency-replayed") !== "true")?.json.id;
    expect(created.filter((r) => r.headers.get("idempotency-replayed") !== "true")).toHaveLength(1);
    for (const r of created) expect(r.json.id).toBe(id);
    // The others were told to retry (409 in flight, Retry-After: 1).
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.json.code).toBe("conflict");
      expect(r.headers.get("retry-after")).toBe("1");
    }
    // A later retry replays the first answer.
    const replay = await api("/api/v1/brands", { method: "POST", body, headers: { "Idempotency-Key": key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.json.id).toBe(id);
    expect(await count("SELECT count(*) AS n FROM brands WHERE name = ?", name)).toBe(1);
  });

  it("retrying while the first is in flight, then after it, gives one supplier and one answer", async () => {
    const internalId = unique("SUP-IDEM");
    const key = unique("idem");
    const body = { name: "Idem supplier", internal_id: internalId };
    const send = () =>
      api("/api/v1/suppliers", { method: "POST", body, headers: { "Idempotency-Key": key } });
    // Waves of retries, as a client with a short timeout would send them.
    const first = await parallel(PARALLEL, send);
    const second = await parallel(PARALLEL, send);
    for (const r of [...first, ...second]) expect([201, 409]).toContain(r.status);
    for (const r of second) expect(r.status).toBe(201);
    const ids = new Set([...first, ...second].filter((r) => r.status === 201).map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect(await count("SELECT count(*) AS n FROM suppliers WHERE internal_id = ?", internalId)).toBe(1);
  });

  it("one bulk job for the same bulk POST and Idempotency-Key sent at once", async () => {
    const p = await createProduct();
    const key = unique("idem-bulk");
    const body = { variants: [{ id: p.variantIds[0], warehouse_stock: 9 }], options: { match_by: "id" } };
    const before = await count("SELECT count(*) AS n FROM jobs");
    const results = await parallel(PARALLEL, () =>
      api("/api/v1/variants/bulk", { method: "POST", body, headers: { "Idempotency-Key": key } }),
    );
    for (const r of results) expect([202, 409]).toContain(r.status);
    const jobIds = new Set(results.filter((r) => r.status === 202).map((r) => r.json[0].job_id));
    expect(jobIds.size).toBe(1);
    expect(await count("SELECT count(*) AS n FROM jobs")).toBe(before + 1);
    await waitForJob([...jobIds][0] as string);
  });
});

describe("bulk jobs touching the same variants", () => {
  it("two jobs at once both finish with consistent summaries, and each variant ends with one job's values", async () => {
    const products = await Promise.all(
      Array.from({ length: 4 }, () => createProduct({ variants: [{}, {}, {}] })),
    );
    const variantIds = products.flatMap((p) => p.variantIds);
    const payload = (stock: number) => ({
      options: { match_by: "id" },
      variants: [
        ...variantIds.map((id) => ({ id, warehouse_stock: stock, supplier_stock: stock + 1 })),
        { id: 999_999_999, warehouse_stock: stock }, // unknown: NOT_FOUND
        { id: variantIds[0], warehouse_stock: -1 }, // invalid: INVALID_FIELD_VALUE
      ],
    });
    const [a, b] = await Promise.all([
      submitBulk("/api/v1/variants/bulk", payload(100)),
      submitBulk("/api/v1/variants/bulk", payload(200)),
    ]);
    const jobs = await Promise.all([waitForJob(a, 30_000), waitForJob(b, 30_000)]);
    for (const [i, job] of jobs.entries()) {
      const s = job.summary;
      expect(s.total_records).toBe(variantIds.length + 2);
      expect(s.processed_records).toBe(s.total_records);
      expect(s.succeeded_records).toBe(variantIds.length);
      expect(s.failed_records).toBe(2);
      expect(job.status).toBe("done_with_errors");
      const logs = await jobLogs(i === 0 ? a : b, "per_page=500");
      expect(logs.filter((l) => l.severity === "ERROR")).toHaveLength(2);
      expect(logs.filter((l) => l.severity === "INFO")).toHaveLength(1);
    }
    const { results } = await env.DB.prepare(
      "SELECT warehouse_stock AS w, supplier_stock AS s FROM variants WHERE id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(variantIds))
      .all<{ w: number; s: number }>();
    for (const row of results) {
      expect([100, 200]).toContain(row.w);
      expect(row.s).toBe(row.w + 1); // both fields of a record come from the same job
    }
  });

  it("a products upsert and a variants update on the same products both finish consistently", async () => {
    const internalId = unique("P");
    const created = await createProduct({ internalId, variants: [{ internalId: `${internalId}-v1` }] });
    const upsert = submitBulk("/api/v1/products/bulk", {
      options: { match_by: "internal_id" },
      products: [
        {
          internal_id: internalId,
          translations: { "es-ES": { name: "Renombrado" } },
          variants: [{ internal_id: `${internalId}-v1`, warehouse_stock: 11 }],
        },
      ],
    });
    const update = submitBulk("/api/v1/variants/bulk", {
      options: { match_by: "internal_id" },
      variants: [{ internal_id: `${internalId}-v1`, warehouse_stock: 22 }],
    });
    const jobs = await Promise.all((await Promise.all([upsert, update])).map((id) => waitForJob(id, 30_000)));
    for (const job of jobs) {
      expect(job.summary.processed_records).toBe(job.summary.total_records);
      const { succeeded_records = 0, failed_records = 0, processed_records } = job.summary;
      expect(succeeded_records + failed_records).toBe(processed_records);
      expect(job.status, JSON.stringify(job)).toBe("done");
    }
    const stock = await count(
      "SELECT warehouse_stock AS n FROM variants WHERE id = ?",
      created.variantIds[0],
    );
    expect([11, 22]).toContain(stock);
  });
});
