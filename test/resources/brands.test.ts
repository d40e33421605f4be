import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

const createBrand = async (overrides: Record<string, unknown> = {}) => {
  const res = await api("/api/v1/brands", {
    method: "POST",
    body: { name: unique("Brand"), translations: { "es-ES": { description: "Descripción" } }, ...overrides },
  });
  expect(res.status).toBe(201);
  return res.json as {
    id: number;
    name: string;
    internal_id: string | null;
    translations: Record<string, { url: string | null }>;
  };
};

describe("brand create", () => {
  it("answers 201 with Location and the default representation", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: {
        name: "Zapatos Niño",
        internal_id: unique("BR"),
        translations: { "es-ES": { description: "x" } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`https://api.test/api/v1/brands/${res.json.id}`);
    expect(Object.keys(res.json).sort()).toEqual(["id", "internal_id", "name", "translations"]);
    expect(res.json.translations["es-ES"].url).toMatch(/^https:\/\/es\.shop\.test\/zapatos-nino(-\d+)?$/);
  });

  it("generates the slug from the name and suffixes -2, -3 on collision", async () => {
    const name = unique("Same Name");
    const a = await createBrand({ name });
    const b = await createBrand({ name });
    const c = await createBrand({ name });
    const slugs = await Promise.all(
      [a, b, c].map(async (brand) => (await api(`/api/v1/brands/${brand.id}?fields=slug`)).json.slug),
    );
    const base = slugs[0];
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`]);
  });

  it("transliterates Greek and Cyrillic names into the slug", async () => {
    const brand = await createBrand({ name: `Ελληνικά Кириллица ${unique("x")}` });
    const res = await api(`/api/v1/brands/${brand.id}?fields=slug`);
    expect(res.json.slug).toMatch(/^ellinika-kirillitsa-x-/);
  });

  it("refuses a supplied slug that is taken with 409", async () => {
    const slug = unique("taken-slug");
    await createBrand({ slug });
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: "Other", slug, translations: {} },
    });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("conflict");
    expect(res.json.errors).toEqual([{ location: "body", path: "slug", message: expect.any(String) }]);
  });

  it("refuses a duplicate internal_id with 409", async () => {
    const internal_id = unique("BR-DUP");
    await createBrand({ internal_id });
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: "Dup", internal_id, translations: {} },
    });
    expect(res.status).toBe(409);
    expect(res.json.errors[0].path).toBe("internal_id");
  });

  it("lists every body problem in one 400", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { slug: "bad slug!", delivery_time_in_stock: -1, translations: { "es-ES": { name: "x" } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    const paths = res.json.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(["delivery_time_in_stock", "name", "slug", "translations.es-ES.name"]);
  });

  it("refuses an unsupported locale in the body with unsupported_locale", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: "X", translations: { "xx-XX": {} } },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unsupported_locale");
  });

  it("saves nothing when the image download fails", async () => {
    const name = unique("NoImage");
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name, image_url: `${inject("fixtureOrigin")}/images/html`, translations: {} },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("image_unavailable");
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM brands WHERE name = ?")
      .bind(name)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("stores a downloaded image and answers with the served copy", async () => {
    const res = await api("/api/v1/brands?fields=image_url", {
      method: "POST",
      body: {
        name: unique("WithImage"),
        image_url: `${inject("fixtureOrigin")}/images/ok.png`,
        translations: {},
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.image_url).toMatch(/^https:\/\/api\.test\/images\/[0-9a-f]{64}\.png$/);
    const image = await api(new URL(res.json.image_url).pathname, { key: null });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
  });
});

describe("brand update", () => {
  it("changes only the fields sent and merges translations per field", async () => {
    const brand = await createBrand({
      translations: {
        "es-ES": { description: "uno", meta_title: "título" },
        "en-GB": { description: "one" },
      },
    });
    const res = await api(
      `/api/v1/brands/${brand.id}?fields=name,description,meta_title&locales=es-ES,en-GB`,
      {
        method: "PATCH",
        body: { translations: { "es-ES": { description: "dos" }, "en-GB": null } },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.name).toBe(brand.name);
    expect(res.json.translations["es-ES"]).toEqual({ description: "dos", meta_title: "título" });
    expect(res.json.translations["en-GB"]).toEqual({ description: null, meta_title: null });
  });

  it("clears a field with null and refuses null for the required name", async () => {
    const brand = await createBrand({ internal_id: unique("BR") });
    const cleared = await api(`/api/v1/brands/${brand.id}`, { method: "PATCH", body: { internal_id: null } });
    expect(cleared.json.internal_id).toBeNull();
    const refused = await api(`/api/v1/brands/${brand.id}`, { method: "PATCH", body: { name: null } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0].path).toBe("name");
  });

  it("refuses translations: null", async () => {
    const brand = await createBrand();
    const res = await api(`/api/v1/brands/${brand.id}`, { method: "PATCH", body: { translations: null } });
    expect(res.status).toBe(400);
  });

  it("keeps the slug on rename", async () => {
    const brand = await createBrand();
    const before = (await api(`/api/v1/brands/${brand.id}?fields=slug`)).json.slug;
    const res = await api(`/api/v1/brands/${brand.id}?fields=slug,name`, {
      method: "PATCH",
      body: { name: "Renamed" },
    });
    expect(res.json).toEqual({ id: brand.id, name: "Renamed", slug: before });
  });

  it("answers 404 for an unknown id and 400 for a non-integer id", async () => {
    expect((await api("/api/v1/brands/999999", { method: "PATCH", body: { name: "x" } })).status).toBe(404);
    expect((await api("/api/v1/brands/abc", { method: "PATCH", body: { name: "x" } })).status).toBe(400);
  });
});

describe("brand list", () => {
  it("filters by brand_ids, internal_ids and slug, repeated parameters adding values", async () => {
    const a = await createBrand({ internal_id: unique("F") });
    const b = await createBrand({ internal_id: unique("F") });
    const byIds = await api(`/api/v1/brands?brand_ids=${a.id}&brand_ids=${b.id}`);
    expect(ids(byIds)).toEqual([a.id, b.id]);
    const byInternal = await api(`/api/v1/brands?internal_ids=${b.internal_id}`);
    expect(ids(byInternal)).toEqual([b.id]);
    const slug = (await api(`/api/v1/brands/${a.id}?fields=slug`)).json.slug;
    const bySlug = await api(`/api/v1/brands?slug=${slug}`);
    expect(ids(bySlug)).toEqual([a.id]);
  });

  it("sorts by name with ties broken by id", async () => {
    const prefix = unique("Sort");
    const z = await createBrand({ name: `${prefix} b`, internal_id: `${prefix}-1` });
    const y = await createBrand({ name: `${prefix} a`, internal_id: `${prefix}-2` });
    const res = await api(`/api/v1/brands?internal_ids=${prefix}-1,${prefix}-2&sort=name_asc`);
    expect(ids(res)).toEqual([y.id, z.id]);
    const desc = await api(`/api/v1/brands?internal_ids=${prefix}-1,${prefix}-2&sort=name_desc`);
    expect(ids(desc)).toEqual([z.id, y.id]);
  });

  it("returns translations for exactly the requested locales with url per locale", async () => {
    const brand = await createBrand();
    const res = await api(`/api/v1/brands/${brand.id}?locales=en-GB,fr-FR`);
    expect(Object.keys(res.json.translations)).toEqual(["en-GB", "fr-FR"]);
    expect(res.json.translations["fr-FR"].url).toMatch(/^https:\/\/fr\.shop\.test\//);
  });
});
