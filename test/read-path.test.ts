import { env } from "cloudflare:test";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client.ts";
import { fastBatch } from "../src/db/fast-batch.ts";
import {
  brands,
  brandTranslations,
  contacts,
  products,
  productTranslations,
} from "../src/db/schema/index.ts";
import { createBrandRow, createProduct } from "./factories.ts";
import { api } from "./helpers.ts";

const roundTrips = (headers: Headers) =>
  Number(/d1;desc="round trips";dur=(\d+)/.exec(headers.get("server-timing") ?? "")?.[1]);

describe("batched reads", () => {
  it("map rows exactly as drizzle's own db.batch does (json, boolean, aggregates, joins, relational queries)", async () => {
    const brandId = await createBrandRow("Mapped");
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO brand_translations (brand_id, locale, description, size_guide_file) VALUES (?, 'es-ES', 'Desc', ?)",
      ).bind(brandId, JSON.stringify({ name: "guide.pdf", pages: 2 })),
      env.DB.prepare(
        "INSERT INTO contacts (id, email, is_b2b, is_customer, created_at) VALUES (990001, 'mapped@example.test', 1, 0, '2025-01-01T00:00:00Z')",
      ),
    ]);
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
});

describe("translations on a read", () => {
  it("cost no query when the selected translated fields read no translation column", async () => {
    await createBrandRow("Url only");
    await api("/api/v1/brands"); // warms the store and key caches
    const res = await api("/api/v1/brands?locales=es-ES,en-GB");
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(1);
    const brand = (res.json as { data: { translations: Record<string, { url: string }> }[] }).data[0];
    expect(Object.keys(brand?.translations ?? {})).toEqual(["es-ES", "en-GB"]);
    expect(brand?.translations["es-ES"]?.url).toMatch(/^https:\/\//);
  });

  it("load a translated column only a `fields` request renders", async () => {
    const brandId = await createBrandRow("With description");
    await env.DB.prepare(
      "INSERT INTO brand_translations (brand_id, locale, description) VALUES (?, 'es-ES', 'Descripción')",
    )
      .bind(brandId)
      .run();
    const plain = await api(`/api/v1/brands/${brandId}`);
    const asked = await api(`/api/v1/brands/${brandId}?fields=description`);
    const tr = (res: typeof plain) =>
      (res.json as { translations: Record<string, Record<string, unknown>> }).translations;
    expect(tr(plain)["es-ES"]).not.toHaveProperty("description");
    expect(tr(asked)["es-ES"]?.description).toBe("Descripción");
    expect(roundTrips(asked.headers)).toBe(roundTrips(plain.headers) + 1);
  });
});
