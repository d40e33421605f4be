import { env } from "cloudflare:test";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idList } from "../../src/conventions/id-set.ts";
import { planRender } from "../../src/conventions/render.ts";
import type { AnyResource } from "../../src/conventions/resource.ts";
import { selectionOf } from "../../src/conventions/selection.ts";
import { createDb } from "../../src/db/client.ts";
import { fastBatch } from "../../src/db/fast-batch.ts";
import { keyedColumns, tableColumns } from "../../src/db/keyed-columns.ts";
import {
  brands,
  brandTranslations,
  contacts,
  products,
  productTranslations,
} from "../../src/db/schema/index.ts";
import { marketsOfLocales } from "../../src/lib/locales.ts";
import { brandResource } from "../../src/resources/brands/brands.resource.ts";
import { productResource } from "../../src/resources/products/products.resource.ts";
import { roundTrips } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createBrandRow, createProduct } from "../support/factories/catalog.ts";

/**
 * A brand with a translation holding a JSON column, and a contact with boolean columns: rows whose
 * columns drizzle decodes. Answers the brand's id.
 */
async function seedDecodedRows(name: string, contactId: number): Promise<number> {
  const brandId = await createBrandRow(name);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO brand_translations (brand_id, locale, description, size_guide_file) VALUES (?, 'es-ES', 'Desc', ?)",
    ).bind(brandId, JSON.stringify({ name: "guide.pdf", pages: 2 })),
    env.DB.prepare(
      "INSERT INTO contacts (id, email, is_b2b, is_customer, created_at) VALUES (?, ?, 1, 0, '2025-01-01T00:00:00Z')",
    ).bind(contactId, `${name.toLowerCase()}@example.test`),
  ]);
  return brandId;
}

/** A brand whose es-ES translation has `description` set (and nothing else). Answers its id. */
async function brandWithDescription(name: string, description: string): Promise<number> {
  const brandId = await createBrandRow(name);
  await env.DB.prepare(
    "INSERT INTO brand_translations (brand_id, locale, description) VALUES (?, 'es-ES', ?)",
  )
    .bind(brandId, description)
    .run();
  return brandId;
}

describe("batched reads", () => {
  it("map rows exactly as drizzle's own db.batch does (json, boolean, aggregates, joins, relational queries)", async () => {
    const brandId = await seedDecodedRows("Mapped", 990001);
    const db = createDb(env.DB);
    const queries = () =>
      [
        db.select().from(brandTranslations).where(eq(brandTranslations.brandId, brandId)),
        db.select({ id: contacts.id, b2b: contacts.isB2b, customer: contacts.isCustomer }).from(contacts),
        db.select({ n: count() }).from(brands),
        db
          .select({
            id: brands.id,
            description: brandTranslations.description,
            label: sql<string>`upper(${brands.name})`,
          })
          .from(brands)
          .leftJoin(brandTranslations, eq(brandTranslations.brandId, brands.id))
          .where(eq(brands.id, brandId)),
        db
          .select({ brand: brands, tr: { description: brandTranslations.description } })
          .from(brands)
          .leftJoin(brandTranslations, eq(brandTranslations.brandId, brands.id)),
        db.query.brands.findMany({ where: eq(brands.id, brandId) }),
        db.update(brands).set({ name: "Mapped" }).where(eq(brands.id, brandId)),
      ] as const;
    const ours = await fastBatch(db, queries());
    const theirs = await db.batch(queries());
    expect(ours.slice(0, 6)).toEqual(theirs.slice(0, 6));
    expect(ours[0][0]?.sizeGuideFile).toEqual({ name: "guide.pdf", pages: 2 });
    expect(ours[1].find((c) => c.id === 990001)).toEqual({ id: 990001, b2b: true, customer: false });
    expect(ours[2][0]?.n).toBeTypeOf("number");
  });

  it("keep columns of one name apart when a selection repeats it", async () => {
    const { id } = await createProduct({});
    const db = createDb(env.DB);
    const query = () =>
      db
        .select({ a: products.id, b: productTranslations.productId, name: productTranslations.name })
        .from(products)
        .leftJoin(productTranslations, eq(productTranslations.productId, products.id))
        .where(eq(products.id, id));
    const [ours] = await fastBatch(db, [query()]);
    const [theirs] = await db.batch([query()]);
    expect(ours).toEqual(theirs);
  });

  it("hand over D1's own rows, decoded in place, when the selection names its columns as their keys", async () => {
    const brandId = await seedDecodedRows("Keyed", 990002);
    let raw: D1Result[] = [];
    const d1 = {
      prepare: (query: string) => env.DB.prepare(query),
      batch: async (statements: D1PreparedStatement[]) => {
        raw = await env.DB.batch(statements);
        return raw;
      },
    } as unknown as D1Database;
    const db = createDb(d1);
    const contactColumns = { id: contacts.id, b2b: contacts.isB2b, customer: contacts.isCustomer };
    const joined = { id: brands.id, brandId: brandTranslations.brandId, name: brands.name };
    const [translations, flags, both] = await fastBatch(db, [
      db
        .select(tableColumns(brandTranslations))
        .from(brandTranslations)
        .where(eq(brandTranslations.brandId, brandId)),
      db.select(keyedColumns(contactColumns)).from(contacts).where(eq(contacts.id, 990002)),
      db
        .select(keyedColumns(joined))
        .from(brands)
        .innerJoin(brandTranslations, eq(brandTranslations.brandId, brands.id))
        .where(eq(brands.id, brandId)),
    ]);
    const plain = createDb(env.DB);
    const [theirTranslations, theirFlags, theirBoth] = await plain.batch([
      plain.select().from(brandTranslations).where(eq(brandTranslations.brandId, brandId)),
      plain.select(contactColumns).from(contacts).where(eq(contacts.id, 990002)),
      plain
        .select(joined)
        .from(brands)
        .innerJoin(brandTranslations, eq(brandTranslations.brandId, brands.id))
        .where(eq(brands.id, brandId)),
    ]);
    expect(translations).toEqual(theirTranslations);
    expect(flags).toEqual([{ id: 990002, b2b: true, customer: false }]);
    expect(flags).toEqual(theirFlags);
    expect(both).toEqual(theirBoth);
    // No copy: the very objects D1 answered, their JSON and boolean columns decoded.
    expect(translations[0]).toBe(raw[0]?.results[0]);
    expect(translations[0]?.sizeGuideFile).toEqual({ name: "guide.pdf", pages: 2 });
    expect(flags[0]).toBe(raw[1]?.results[0]);
  });
});

/** The SQL a read of `resource` plans for its translations, with the request's `fields`. */
function plannedSql(resource: AnyResource, fields?: string[]) {
  const ctx = {
    c: undefined as never,
    db: createDb(env.DB),
    locales: ["es-ES", "en-GB"],
    markets: marketsOfLocales(["es-ES", "en-GB"]),
    store: { primaryLocale: "es-ES", enabledLocales: ["es-ES", "en-GB"], domains: {} },
    today: "2026-11-22",
  };
  const plan = planRender(ctx, resource, idList([1, 2]), selectionOf(resource, fields ? { fields } : {}));
  return plan.queries.map((q) => (q as unknown as { toSQL(): { sql: string } }).toSQL().sql);
}

describe("translations on a read", () => {
  it("load only the translation columns the selected fields render", () => {
    const translationQuery = plannedSql(productResource).find((q) => q.includes('"product_translations"'));
    expect(translationQuery).toMatch(/"name"/);
    expect(translationQuery).toMatch(/"slug"/);
    expect(translationQuery).not.toMatch(/"body_html"|"description"|"meta_title"/);
    const asked = plannedSql(productResource, ["body_html"]).find((q) =>
      q.includes('"product_translations"'),
    );
    expect(asked).toMatch(/"body_html"/);
    expect(asked).not.toMatch(/"meta_title"/);
  });

  it("cost no query when the selected translated fields read no translation column", () => {
    expect(plannedSql(brandResource).some((q) => q.includes('"brand_translations"'))).toBe(false);
    expect(plannedSql(brandResource, ["description"]).some((q) => q.includes('"brand_translations"'))).toBe(
      true,
    );
  });

  it("still render every requested locale and field", async () => {
    const brandId = await brandWithDescription("With description", "Descripción");
    const plain = await api(`/api/v1/brands/${brandId}?locales=es-ES,en-GB`);
    const asked = await api(`/api/v1/brands/${brandId}?fields=description&locales=es-ES,en-GB`);
    const tr = (res: typeof plain) =>
      (res.json as { translations: Record<string, Record<string, unknown>> }).translations;
    expect(Object.keys(tr(plain))).toEqual(["es-ES", "en-GB"]);
    expect(tr(plain)["es-ES"]?.url).toMatch(/^https:\/\//);
    expect(tr(plain)["es-ES"]).not.toHaveProperty("description");
    expect(tr(asked)["es-ES"]?.description).toBe("Descripción");
    expect(tr(asked)["en-GB"]?.description).toBeNull();
  });

  it("render a locale named twice as once, at its first place", async () => {
    const brandId = await brandWithDescription("Twice", "Dos veces");
    const once = await api(`/api/v1/brands/${brandId}?fields=description&locales=es-ES,en-GB`);
    const twice = await api(`/api/v1/brands/${brandId}?fields=description&locales=es-ES,en-GB,es-ES`);
    expect(twice.status).toBe(200);
    expect(twice.json).toEqual(once.json);
    expect(Object.keys((twice.json as { translations: object }).translations)).toEqual(["es-ES", "en-GB"]);
  });
});

describe("list pages", () => {
  it("load a shallow page with its rows in one round trip and a page beyond offset 1,000 by its ids in two", async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1150)
       INSERT INTO brands (id, name, slug) SELECT 880000 + i, 'Deep ' || i, 'deep-' || i FROM n`,
    ).run();
    const path = (page: number) => `/api/v1/brands?fields=description&per_page=100&page=${page}`;
    await api(path(1)); // warms the store and key caches
    const shallow = await api(path(11)); // offset 1,000
    const deep = await api(path(12)); // offset 1,100
    expect(shallow.status).toBe(200);
    expect(deep.status).toBe(200);
    expect(deep.json.data.length).toBeGreaterThan(0);
    expect(deep.json.data[0]).toHaveProperty("translations");
    expect(roundTrips(shallow.headers)).toBe(1);
    expect(roundTrips(deep.headers)).toBe(2);
  });
});
