import { describe, expect, it } from "vitest";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

type Category = {
  id: number;
  internal_id: string | null;
  translations: Record<string, Record<string, unknown>>;
};

const createCategory = async (overrides: Record<string, unknown> = {}): Promise<Category> => {
  const res = await api("/api/v1/categories", {
    method: "POST",
    body: { status: "published", translations: { "es-ES": { name: unique("Categoría") } }, ...overrides },
  });
  expect(res.status).toBe(201);
  return res.json;
};

describe("category create", () => {
  it("answers 201 with internal_id, and name and url per locale", async () => {
    const res = await api("/api/v1/categories?locales=es-ES,en-GB", {
      method: "POST",
      body: {
        status: "published",
        internal_id: unique("CAT"),
        translations: { "es-ES": { name: "Camisetas Únicas" }, "en-GB": { name: "Unique T-shirts" } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`https://api.test/api/v1/categories/${res.json.id}`);
    expect(res.json.translations["es-ES"]).toEqual({
      name: "Camisetas Únicas",
      url: expect.stringMatching(/^https:\/\/es\.shop\.test\/camisetas-unicas(-\d+)?$/),
    });
    expect(res.json.translations["en-GB"].url).toMatch(/^https:\/\/en\.shop\.test\/unique-t-shirts/);
  });

  it("generates slugs unique per locale, suffixing collisions", async () => {
    const name = unique("Same");
    const a = await createCategory({ translations: { "es-ES": { name }, "fr-FR": { name } } });
    const b = await createCategory({ translations: { "es-ES": { name } } });
    const sa = (await api(`/api/v1/categories/${a.id}?fields=slug&locales=es-ES,fr-FR`)).json.translations;
    const sb = (await api(`/api/v1/categories/${b.id}?fields=slug`)).json.translations;
    expect(sa["fr-FR"].slug).toBe(sa["es-ES"].slug);
    expect(sb["es-ES"].slug).toBe(`${sa["es-ES"].slug}-2`);
  });

  it("refuses a supplied slug taken in the same locale with 409", async () => {
    const slug = unique("cat-slug");
    await createCategory({ translations: { "es-ES": { name: "A", slug } } });
    const res = await api("/api/v1/categories", {
      method: "POST",
      body: { status: "published", translations: { "es-ES": { name: "B", slug } } },
    });
    expect(res.status).toBe(409);
    expect(res.json.errors[0].path).toBe("translations.es-ES.slug");
  });

  it("refuses an unknown parent_id with 400 invalid_body", async () => {
    const res = await api("/api/v1/categories", {
      method: "POST",
      body: { status: "published", parent_id: 987654, translations: {} },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(res.json.errors[0].path).toBe("parent_id");
  });

  it("requires status and translations", async () => {
    const res = await api("/api/v1/categories", { method: "POST", body: {} });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(["status", "translations"]);
  });
});

describe("category tree", () => {
  it("filters roots with is_root_folder and children with parent_id", async () => {
    const root = await createCategory({ internal_id: unique("ROOT") });
    const child = await createCategory({ parent_id: root.id, internal_id: unique("CHILD") });
    const both = `${root.id},${child.id}`;
    const roots = await api(`/api/v1/categories?category_ids=${both}&is_root_folder=true`);
    expect(ids(roots)).toEqual([root.id]);
    const nonRoots = await api(`/api/v1/categories?category_ids=${both}&is_root_folder=false`);
    expect(ids(nonRoots)).toEqual([child.id]);
    const children = await api(`/api/v1/categories?parent_id=${root.id}`);
    expect(ids(children)).toEqual([child.id]);
  });

  it("refuses a parent that is the category itself or a descendant with 409, changing nothing", async () => {
    const a = await createCategory();
    const b = await createCategory({ parent_id: a.id });
    const c = await createCategory({ parent_id: b.id });
    const self = await api(`/api/v1/categories/${a.id}`, { method: "PATCH", body: { parent_id: a.id } });
    expect(self.status).toBe(409);
    const cycle = await api(`/api/v1/categories/${a.id}`, {
      method: "PATCH",
      body: {
        parent_id: c.id,
        status: "unpublished",
        translations: { "en-GB": { name: "Should not stay" } },
      },
    });
    expect(cycle.status).toBe(409);
    expect(cycle.json.errors[0].path).toBe("parent_id");
    const after = await api(`/api/v1/categories/${a.id}?fields=parent_id,status,name&locales=en-GB`);
    expect(after.json).toEqual({
      id: a.id,
      parent_id: null,
      status: "published",
      translations: { "en-GB": { name: null } },
    });
  });

  it("moves a category under another branch", async () => {
    const a = await createCategory();
    const b = await createCategory();
    const res = await api(`/api/v1/categories/${b.id}?fields=parent_id`, {
      method: "PATCH",
      body: { parent_id: a.id },
    });
    expect(res.status).toBe(200);
    expect(res.json.parent_id).toBe(a.id);
  });
});

describe("category update", () => {
  it("merges merchant_categories key by key, null removing a key", async () => {
    const cat = await createCategory({ merchant_categories: { google: { id: "1" }, meta: { id: "2" } } });
    const res = await api(`/api/v1/categories/${cat.id}?fields=merchant_categories`, {
      method: "PATCH",
      body: { merchant_categories: { meta: null, amazon: { id: "3" } } },
    });
    expect(res.json.merchant_categories).toEqual({ google: { id: "1" }, amazon: { id: "3" } });
  });

  it("keeps slugs on rename and generates one for a new locale", async () => {
    const cat = await createCategory();
    const before = (await api(`/api/v1/categories/${cat.id}?fields=slug`)).json.translations["es-ES"].slug;
    const res = await api(`/api/v1/categories/${cat.id}?fields=name,slug&locales=es-ES,de-DE`, {
      method: "PATCH",
      body: { translations: { "es-ES": { name: "Nuevo nombre" }, "de-DE": { name: `Neu ${cat.id}` } } },
    });
    expect(res.json.translations["es-ES"]).toEqual({ name: "Nuevo nombre", slug: before });
    expect(res.json.translations["de-DE"].slug).toBe(`neu-${cat.id}`);
  });

  it("filters by slug in any locale and by status", async () => {
    const cat = await createCategory({ status: "unpublished" });
    const slug = (await api(`/api/v1/categories/${cat.id}?fields=slug`)).json.translations["es-ES"].slug;
    const res = await api(`/api/v1/categories?slug=${slug}&status=unpublished`);
    expect(ids(res)).toEqual([cat.id]);
    const none = await api(`/api/v1/categories?slug=${slug}&status=published`);
    expect(none.json.data).toEqual([]);
  });

  it("sorts by the translated name of the first requested locale, missing names last", async () => {
    const tag = unique("srt");
    const b = await createCategory({ internal_id: `${tag}-1`, translations: { "en-GB": { name: "Bravo" } } });
    const a = await createCategory({ internal_id: `${tag}-2`, translations: { "en-GB": { name: "Alpha" } } });
    const none = await createCategory({
      internal_id: `${tag}-3`,
      translations: { "es-ES": { name: "Solo" } },
    });
    const q = `internal_ids=${tag}-1,${tag}-2,${tag}-3&locales=en-GB`;
    const asc = await api(`/api/v1/categories?${q}&sort=name_asc`);
    expect(ids(asc)).toEqual([a.id, b.id, none.id]);
    const desc = await api(`/api/v1/categories?${q}&sort=name_desc`);
    expect(ids(desc)).toEqual([b.id, a.id, none.id]);
  });
});
