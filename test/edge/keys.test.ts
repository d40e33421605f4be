import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { cacheStatus, HIT, MISS } from "../support/edge.ts";
import { unique } from "../support/unique.ts";

const createBrands = async (n: number) => {
  const prefix = unique("Key");
  for (let i = 0; i < n; i++) {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: `${prefix} ${i}`, translations: {} },
    });
    expect(res.status).toBe(201);
  }
  const last = await api("/api/v1/brands?sort=id_desc&per_page=1&fields=name");
  return last.json.data[0].id as number;
};

describe("cache keys", () => {
  it("query parameters in another order share one entry where the answer has no page links", async () => {
    const id = await createBrands(1);
    const a = await api(`/api/v1/brands/${id}?locales=es-ES,fr-FR&fields=name,slug`);
    const b = await api(`/api/v1/brands/${id}?fields=name,slug&locales=es-ES,fr-FR`);
    expect(cacheStatus(a)).toBe(MISS);
    expect(cacheStatus(b)).toBe(HIT);
    expect(b.text).toBe(a.text);
  });

  it("values are kept as sent: locales in another order are another answer (they order the translations)", async () => {
    const created = await api("/api/v1/categories", {
      method: "POST",
      body: {
        status: "published",
        translations: { "es-ES": { name: unique("Cat") }, "fr-FR": { name: "Chat" } },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const a = await api(`/api/v1/categories/${id}?locales=fr-FR,es-ES`);
    expect(a.status, a.text).toBe(200);
    const b = await api(`/api/v1/categories/${id}?locales=es-ES,fr-FR`);
    expect(cacheStatus(b)).toBe(MISS);
    expect(Object.keys(a.json.translations)).toEqual(["fr-FR", "es-ES"]);
    expect(Object.keys(b.json.translations)).toEqual(["es-ES", "fr-FR"]);
  });

  it("a list keeps its query as sent: its page links echo the URL the client sent", async () => {
    await createBrands(3);
    const a = await api("/api/v1/brands?per_page=1&sort=id_desc");
    const b = await api("/api/v1/brands?sort=id_desc&per_page=1");
    expect(cacheStatus(a)).toBe(MISS);
    expect(cacheStatus(b)).toBe(MISS);
    expect(a.json.pagination.next_page_url).toBe(
      "https://api.test/api/v1/brands?per_page=1&sort=id_desc&page=2",
    );
    expect(b.json.pagination.next_page_url).toBe(
      "https://api.test/api/v1/brands?sort=id_desc&per_page=1&page=2",
    );
    const again = await api("/api/v1/brands?sort=id_desc&per_page=1");
    expect(cacheStatus(again)).toBe(HIT);
    expect(again.text).toBe(b.text);
  });

  it("the origin the request reached is part of the key: page links never name another host", async () => {
    await createBrands(2);
    const here = await api("/api/v1/brands?per_page=1", { origin: "https://api.test" });
    const there = await api("/api/v1/brands?per_page=1", { origin: "https://other.test" });
    expect(cacheStatus(there)).toBe(MISS);
    expect(here.json.pagination.next_page_url).toMatch(/^https:\/\/api\.test\//);
    expect(there.json.pagination.next_page_url).toMatch(/^https:\/\/other\.test\//);
  });

  it("request headers are not part of the key: another Accept-Language or User-Agent gets the same entry", async () => {
    const id = await createBrands(1);
    await api(`/api/v1/brands/${id}`);
    const res = await api(`/api/v1/brands/${id}`, {
      headers: { "accept-language": "fr-FR", "user-agent": "another", "x-forwarded-host": "evil.test" },
    });
    expect(cacheStatus(res)).toBe(HIT);
  });
});
