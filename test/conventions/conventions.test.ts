import type { z } from "@hono/zod-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import { selectableFields, sortValues } from "../../src/conventions/query-schema.ts";
import type { AnyResource } from "../../src/conventions/resource.ts";
import { RESOURCES } from "../../src/resources/index.ts";
import { api } from "../support/api.ts";
import { FIXTURES } from "./fixtures.ts";

/**
 * The shared rules of README "Conventions (all resources)", run against every entry of RESOURCES
 * from its own declaration (fields, includes, sorts, filters) with the rows of its fixture
 * (test/conventions/fixtures.ts), so a new resource is covered by its registry line and a fixture.
 */

/** Keys of a rendered item: the fixed fields plus `fields` (absent: the default ones), under their output keys. */
function representationKeys(resource: AnyResource, fields?: string[]) {
  const chosen = (name: string, kind?: string) => (fields ? fields.includes(name) : kind === "default");
  const keys = Object.entries(resource.fields)
    .filter(([name, f]) => f.kind === "fixed" || chosen(name, f.kind))
    .map(([name, f]) => f.into ?? name);
  const translated = Object.entries(resource.translations?.fields ?? {}).some(([name, f]) =>
    chosen(name, f.kind),
  );
  return [...new Set(translated ? [...keys, "translations"] : keys)].sort();
}

/** The first `translations` in a rendered item, breadth first (a price list's are its nested categories'). */
function translationsIn(item: unknown): Record<string, unknown> | undefined {
  const queue = [item];
  for (let value = queue.shift(); value !== undefined; value = queue.shift()) {
    if (typeof value !== "object" || value === null) continue;
    if ("translations" in value && typeof value.translations === "object" && value.translations !== null) {
      return value.translations as Record<string, unknown>;
    }
    queue.push(...Object.values(value));
  }
  return undefined;
}

/** A value a filter's own schema refuses: not a number, date or listed value, else too long a text. */
function badValue(schema: z.ZodType) {
  const bad = ["x", "x".repeat(300)].find((value) => !schema.safeParse(value).success);
  if (bad === undefined) throw new Error("the filter accepts every candidate bad value");
  return bad;
}

describe("convention suite", () => {
  it("has a fixture for every registered resource", () => {
    expect(RESOURCES.map(({ resource }) => resource.name).filter((name) => !FIXTURES[name])).toEqual([]);
  });
});

for (const { resource } of RESOURCES) {
  const fixture = FIXTURES[resource.name];
  if (!fixture) continue;
  const hasGet = !resource.parent;
  // The output key of the row's id (`variant_id` for price-list variant prices).
  const key = resource.idColumn.name;
  const missingId = fixture.missingId ?? "99999999";

  describe(`conventions: ${resource.path}`, () => {
    const ids: (number | string)[] = [];
    /** The collection's URL path, under the fixture's parent for a sub-resource. */
    let collection = "";
    beforeAll(async () => {
      const rows = await fixture.create();
      ids.push(...rows.ids);
      collection = `/api/v1${resource.path.replace(/\{\w+\}/, String(rows.parentId))}`;
    });

    /** A list request, with what every list of the resource needs (a required filter). */
    const list = (query = "") => `${collection}?${[fixture.query, query].filter(Boolean).join("&")}`;

    /** The first fixture row rendered with `query`: its get, or its entry in a sub-resource's list. */
    async function first(query = "") {
      const res = await api(hasGet ? `${collection}/${ids[0]}${query ? `?${query}` : ""}` : list(query));
      expect(res.status, query).toBe(200);
      return hasGet ? res.json : res.json.data.find((x: Record<string, unknown>) => x[key] === ids[0]);
    }

    it("returns fixed and default fields when fields is absent", async () => {
      expect(Object.keys(await first()).sort()).toEqual(representationKeys(resource));
    });

    it("returns fixed fields plus exactly the listed ones with fields", async () => {
      for (const field of selectableFields(resource)) {
        const item = await first(`fields=${field}`);
        expect(Object.keys(item).sort()).toEqual(representationKeys(resource, [field]));
        if (resource.translations?.fields[field])
          expect(Object.keys(Object.values(item.translations)[0] as object)).toEqual([field]);
      }
    });

    it("refuses an unknown field name with 400 invalid_parameter", async () => {
      const res = await api(list("fields=nope"));
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_parameter");
      expect(res.json.errors[0]).toMatchObject({ location: "query", path: "fields" });
    });

    it("refuses an unknown include name with 400", async () => {
      const res = await api(list("includes=nope"));
      expect(res.status).toBe(400);
      if (resource.includes) {
        expect(res.json.code).toBe("invalid_parameter");
        expect(res.json.errors[0]).toMatchObject({ location: "query", path: "includes" });
      } else {
        expect(res.json.code).toBe("unknown_parameter");
      }
    });

    for (const [name, include] of Object.entries(resource.includes ?? {})) {
      it(`embeds ${name} in its representation with includes=${name}`, async () => {
        const item = await first(`includes=${name}`);
        expect(Object.keys(item).sort()).toEqual([...representationKeys(resource), name].sort());
        const embedded = include.kind === "one" ? [item[name]] : item[name];
        expect(embedded.length).toBeGreaterThan(0);
        const keys = representationKeys(include.resource(), include.fields);
        for (const object of embedded) expect(Object.keys(object).sort()).toEqual(keys);
      });
    }

    it("orders by every sort value in both directions, ties by id", async () => {
      for (const sort of sortValues(resource)) {
        const res = await api(list(`per_page=100&sort=${sort}`));
        expect(res.status, sort).toBe(200);
        const got = res.json.data
          .map((x: Record<string, unknown>) => x[key])
          .filter((id: number | string) => ids.includes(id));
        const [name, dir] = [sort.replace(/_(asc|desc)$/, ""), sort.endsWith("_asc") ? 1 : -1];
        const def = resource.sorts[name];
        const byId = def !== undefined && "column" in def && def.column === resource.idColumn;
        // Fixture rows come in id order and every other sort value decreases: those sorts reverse it.
        const expected = [...ids].sort((a, b) => (ids.indexOf(a) - ids.indexOf(b)) * dir * (byId ? 1 : -1));
        expect(got, sort).toEqual(expected);
      }
    });

    it("refuses an unknown sort with 400", async () => {
      const res = await api(list("sort=nope_asc"));
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_parameter");
    });

    if (resource.filters) {
      it("refuses a bad value of every filter with 400 naming the filter", async () => {
        for (const [name, filter] of Object.entries(resource.filters ?? {})) {
          const query = new URLSearchParams(fixture.query);
          query.set(name, badValue(filter.schema));
          const res = await api(`${collection}?${query}`);
          expect(res.status, name).toBe(400);
          expect(["invalid_parameter", "unsupported_locale"], name).toContain(res.json.code);
          expect(res.json.errors, name).toContainEqual(
            expect.objectContaining({ location: "query", path: name }),
          );
        }
      });
    }

    it("paginates with totals of the whole dataset and links that keep other parameters", async () => {
      const all = await api(list("per_page=100"));
      const total = all.json.pagination.total;
      expect(total).toBeGreaterThanOrEqual(3);
      const page = (n: number) => list(`per_page=1&sort=${Object.keys(resource.sorts)[0]}_desc&page=${n}`);
      const res = await api(page(2));
      expect(res.json.pagination).toEqual({
        current_page: 2,
        per_page: 1,
        total,
        total_pages: total,
        ...(total > 2 ? { next_page_url: `https://api.test${page(3)}` } : {}),
        previous_page_url: `https://api.test${page(1)}`,
      });
      expect(res.json.data).toHaveLength(1);
    });

    it("answers 404 page_not_found beyond the last page", async () => {
      const res = await api(list("per_page=100&page=999"));
      expect(res.status).toBe(404);
      expect(res.json.code).toBe("page_not_found");
    });

    it("refuses an unknown query parameter with unknown_parameter", async () => {
      const res = await api(list("colour=red"));
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("unknown_parameter");
      expect(res.json.errors).toEqual([{ location: "query", path: "colour", message: "unknown parameter" }]);
    });

    if (hasGet) {
      it("answers 404 not_found for an unknown id and 400 for a non-integer id", async () => {
        expect((await api(`${collection}/${missingId}`)).json.code).toBe("not_found");
        const bad = await api(`${collection}/1.5`);
        expect(bad.status).toBe(400);
        expect(bad.json.errors[0]).toMatchObject({ location: "path", path: "id" });
      });
    } else {
      it("answers 404 not_found for an unknown parent and 400 for a malformed parent id", async () => {
        const under = (parentId: string) => `/api/v1${resource.path.replace(/\{\w+\}/, parentId)}`;
        const unknown = await api(under(missingId));
        expect(unknown.status).toBe(404);
        expect(unknown.json.code).toBe("not_found");
        const bad = await api(under("1.5"));
        expect(bad.status).toBe(400);
        const param = /\{(\w+)\}/.exec(resource.path)?.[1];
        expect(bad.json.errors[0]).toMatchObject({ location: "path", path: param });
      });
    }

    if (resource.localized) {
      it("returns every enabled locale with locales=ALL", async () => {
        expect(Object.keys(translationsIn(await first("locales=ALL")) ?? {})).toHaveLength(14);
      });

      it("refuses an unsupported locale with unsupported_locale naming it", async () => {
        const res = await api(list("locales=es-ES,xx-YY"));
        expect(res.status).toBe(400);
        expect(res.json.code).toBe("unsupported_locale");
        expect(res.json.detail).toContain("xx-YY");
      });

      it("uses the primary locale when locales is absent", async () => {
        expect(Object.keys(translationsIn(await first()) ?? {})).toEqual(["es-ES"]);
      });
    } else {
      it("does not take locales", async () => {
        const res = await api(list("locales=es-ES"));
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
