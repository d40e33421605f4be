import { beforeAll, describe, expect, it } from "vitest";
import { selectableFields, sortValues } from "../../src/conventions/query-schema.ts";
import type { AnyResource } from "../../src/conventions/resource.ts";
import { brandResource } from "../../src/resources/brands/brands.resource.ts";
import { categoryResource } from "../../src/resources/categories/categories.resource.ts";
import { supplierResource } from "../../src/resources/suppliers/suppliers.resource.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

/**
 * The shared rules of README "Conventions (all resources)", run against every resource from its own
 * declaration (fields, sorts), so a new resource is covered by adding one line here.
 */
interface Case {
  path: string;
  resource: AnyResource;
  create: (i: number) => Record<string, unknown>;
}

const CASES: Case[] = [
  {
    path: "/brands",
    resource: brandResource,
    create: (i) => ({ name: `Conv ${String.fromCharCode(90 - i)} ${unique("b")}`, translations: {} }),
  },
  {
    path: "/categories",
    resource: categoryResource,
    create: (i) => ({
      status: "published",
      translations: { "es-ES": { name: `Conv ${String.fromCharCode(90 - i)}` } },
    }),
  },
  {
    path: "/suppliers",
    resource: supplierResource,
    create: (i) => ({ name: `Conv ${String.fromCharCode(90 - i)}`, internal_id: unique("S") }),
  },
];

for (const { path, resource, create } of CASES) {
  describe(`conventions: ${path}`, () => {
    const ids: number[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 3; i++) {
        const res = await api(`/api/v1${path}`, { method: "POST", body: create(i) });
        expect(res.status).toBe(201);
        ids.push(res.json.id);
      }
    });

    const fixedAndDefault = () => {
      const names = Object.entries(resource.fields)
        .filter(([, f]) => f.kind === "fixed" || f.kind === "default")
        .map(([n]) => n);
      const translated = Object.entries(resource.translations?.fields ?? {}).filter(
        ([, f]) => f.kind === "default",
      );
      return translated.length > 0 ? [...names, "translations"] : names;
    };

    it("returns fixed and default fields when fields is absent", async () => {
      const res = await api(`/api/v1${path}/${ids[0]}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(fixedAndDefault().sort());
    });

    it("returns fixed fields plus exactly the listed ones with fields", async () => {
      const fixed = Object.entries(resource.fields)
        .filter(([, f]) => f.kind === "fixed")
        .map(([n]) => n);
      for (const field of selectableFields(resource)) {
        const res = await api(`/api/v1${path}/${ids[0]}?fields=${field}`);
        expect(res.status).toBe(200);
        const isTranslated = Boolean(resource.translations?.fields[field]);
        const expected = isTranslated ? [...fixed, "translations"] : [...fixed, field];
        expect(Object.keys(res.json).sort()).toEqual(expected.sort());
        if (isTranslated)
          expect(Object.keys(Object.values(res.json.translations)[0] as object)).toEqual([field]);
      }
    });

    it("refuses an unknown field name with 400 invalid_parameter", async () => {
      const res = await api(`/api/v1${path}?fields=nope`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_parameter");
      expect(res.json.errors[0]).toMatchObject({ location: "query", path: "fields" });
    });

    it("orders by every sort value in both directions, ties by id", async () => {
      const filter = `${path === "/suppliers" ? "" : ""}per_page=100`;
      for (const sort of sortValues(resource)) {
        const res = await api(`/api/v1${path}?${filter}&sort=${sort}`);
        expect(res.status, sort).toBe(200);
        const got = res.json.data.map((x: { id: number }) => x.id).filter((id: number) => ids.includes(id));
        const [key, dir] = [sort.replace(/_(asc|desc)$/, ""), sort.endsWith("_asc") ? 1 : -1];
        const expected = [...ids].sort((a, b) => {
          if (key === "id") return (a - b) * dir;
          // Fixture i has name letter Z, Y, X: name order is the reverse of creation order.
          return (b - a) * dir;
        });
        expect(got, sort).toEqual(expected);
      }
    });

    it("refuses an unknown sort with 400", async () => {
      const res = await api(`/api/v1${path}?sort=nope_asc`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_parameter");
    });

    it("paginates with totals of the whole dataset and links that keep other parameters", async () => {
      const all = await api(`/api/v1${path}?per_page=100`);
      const total = all.json.pagination.total;
      expect(total).toBeGreaterThanOrEqual(3);
      const res = await api(`/api/v1${path}?per_page=1&sort=id_desc&page=2`);
      expect(res.json.pagination).toEqual({
        current_page: 2,
        per_page: 1,
        total,
        total_pages: total,
        ...(total > 2
          ? { next_page_url: `https://api.test/api/v1${path}?per_page=1&sort=id_desc&page=3` }
          : {}),
        previous_page_url: `https://api.test/api/v1${path}?per_page=1&sort=id_desc&page=1`,
      });
      expect(res.json.data).toHaveLength(1);
    });

    it("answers 404 page_not_found beyond the last page", async () => {
      const res = await api(`/api/v1${path}?per_page=100&page=999`);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe("page_not_found");
    });

    it("refuses an unknown query parameter with unknown_parameter", async () => {
      const res = await api(`/api/v1${path}?colour=red`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("unknown_parameter");
      expect(res.json.errors).toEqual([{ location: "query", path: "colour", message: "unknown parameter" }]);
    });

    it("answers 404 not_found for an unknown id and 400 for a non-integer id", async () => {
      expect((await api(`/api/v1${path}/99999999`)).json.code).toBe("not_found");
      const bad = await api(`/api/v1${path}/1.5`);
      expect(bad.status).toBe(400);
      expect(bad.json.errors[0]).toMatchObject({ location: "path", path: "id" });
    });

    if (resource.localized) {
      it("returns every enabled locale with locales=ALL", async () => {
        const res = await api(`/api/v1${path}/${ids[0]}?locales=ALL`);
        expect(Object.keys(res.json.translations)).toHaveLength(14);
      });

      it("refuses an unsupported locale with unsupported_locale naming it", async () => {
        const res = await api(`/api/v1${path}?locales=es-ES,xx-YY`);
        expect(res.status).toBe(400);
        expect(res.json.code).toBe("unsupported_locale");
        expect(res.json.detail).toContain("xx-YY");
      });

      it("uses the primary locale when locales is absent", async () => {
        const res = await api(`/api/v1${path}/${ids[0]}`);
        expect(Object.keys(res.json.translations)).toEqual(["es-ES"]);
      });
    } else {
      it("does not take locales", async () => {
        const res = await api(`/api/v1${path}?locales=es-ES`);
        expect(res.json.code).toBe("unknown_parameter");
      });
    }
  });
}

describe("query parsing", () => {
  it("lists every query problem in one answer", async () => {
    const res = await api("/api/v1/brands?page=0&per_page=101&brand_ids=x");
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "brand_ids",
      "page",
      "per_page",
    ]);
  });

  it("refuses non-decimal integers, empty values and repeats of single-valued parameters", async () => {
    for (const q of [
      "page=1e2",
      "page=",
      "per_page=010",
      "page=1&page=2",
      "brand_ids=1,,2",
      "sort=id_asc,id_desc",
    ]) {
      const res = await api(`/api/v1/brands?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("invalid_parameter");
    }
  });

  it("refuses a filter over its maximum count", async () => {
    const many = Array.from({ length: 201 }, (_, i) => `s${i}`).join(",");
    const res = await api(`/api/v1/brands?slug=${many}`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("slug");
  });

  it("answers page 1 of an empty result with zero totals and page 2 with 404", async () => {
    const res = await api("/api/v1/brands?internal_ids=none-such");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      pagination: { current_page: 1, per_page: 50, total: 0, total_pages: 0 },
      data: [],
    });
    expect((await api("/api/v1/brands?internal_ids=none-such&page=2")).status).toBe(404);
  });
});
