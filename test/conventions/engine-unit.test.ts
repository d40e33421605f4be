import { describe, expect, it } from "vitest";
import { paginationOf, withPage } from "../../src/conventions/pagination.ts";
import { conventionQuerySchema, selectableFields, sortValues } from "../../src/conventions/query-schema.ts";
import { intListParam, intParam, toBoundIso } from "../../src/http/params.ts";
import { marketsOfLocales } from "../../src/lib/locales.ts";
import { toScale } from "../../src/lib/money.ts";
import { slugCandidates, slugify } from "../../src/lib/slug.ts";
import { brandResource } from "../../src/resources/brands/brands.resource.ts";
import { productResource } from "../../src/resources/products/products.resource.ts";

describe("pagination links", () => {
  it("replace page in place and keep every other parameter exactly as sent", () => {
    expect(withPage("https://h/api?a=1%2C2&page=3&b=x", 4)).toBe("https://h/api?a=1%2C2&page=4&b=x");
    expect(withPage("https://h/api?a=1", 2)).toBe("https://h/api?a=1&page=2");
    expect(withPage("https://h/api", 2)).toBe("https://h/api?page=2");
  });

  it("omit next on the last page and previous on the first", () => {
    expect(paginationOf("https://h/x", 1, 10, 25)).toEqual({
      current_page: 1,
      per_page: 10,
      total: 25,
      total_pages: 3,
      next_page_url: "https://h/x?page=2",
    });
    expect(paginationOf("https://h/x?page=3", 3, 10, 25)).toEqual({
      current_page: 3,
      per_page: 10,
      total: 25,
      total_pages: 3,
      previous_page_url: "https://h/x?page=2",
    });
  });
});

describe("query parameter parsing", () => {
  it("accepts only plain decimal integers within bounds", () => {
    const schema = intParam({ min: 1, max: 100 });
    expect(schema.safeParse("42").data).toBe(42);
    for (const bad of ["0", "101", "-1", "1.0", "1e2", "0x10", " 1", "01"])
      expect(schema.safeParse(bad).success, bad).toBe(false);
  });

  it("splits lists on commas, dedupes, and refuses empty items and too many values", () => {
    const schema = intListParam(undefined, 3);
    expect(schema.safeParse("3,1,3").data).toEqual([3, 1]);
    expect(schema.safeParse("1,,2").success).toBe(false);
    expect(schema.safeParse("1,2,3,4").success).toBe(false);
    expect(schema.safeParse("1,a").success).toBe(false);
  });

  it("turns date-only bounds into the start and end of the UTC day", () => {
    expect(toBoundIso("2026-03-01", "from")).toBe("2026-03-01T00:00:00Z");
    expect(toBoundIso("2026-03-01", "to")).toBe("2026-03-01T23:59:59Z");
    expect(toBoundIso("2026-03-01T10:00:00+02:00", "from")).toBe("2026-03-01T08:00:00Z");
    expect(toBoundIso("2026-02-30", "from")).toBeNull();
    expect(toBoundIso("2026-03-01T10:00:00", "from")).toBeNull();
  });
});

describe("derived query schemas", () => {
  it("derive fields, sorts and filters from the declaration", () => {
    expect(selectableFields(brandResource)).toEqual(
      expect.arrayContaining(["name", "slug", "url", "description", "size_guide_file"]),
    );
    expect(sortValues(productResource)).toEqual([
      "id_asc",
      "id_desc",
      "name_asc",
      "name_desc",
      "created_at_asc",
      "created_at_desc",
      "updated_at_asc",
      "updated_at_desc",
    ]);
    const shape = Object.keys(conventionQuerySchema(productResource, "list").shape);
    expect(shape).toEqual(
      expect.arrayContaining([
        "fields",
        "includes",
        "locales",
        "page",
        "per_page",
        "sort",
        "category_ids",
        "sku",
      ]),
    );
    expect(Object.keys(conventionQuerySchema(productResource, "single").shape).sort()).toEqual([
      "fields",
      "includes",
      "locales",
    ]);
  });

  it("refuses a _from later than its _to", () => {
    const schema = conventionQuerySchema(productResource, "list");
    expect(schema.safeParse({ created_at_from: "2026-02-01", created_at_to: "2026-01-01" }).success).toBe(
      false,
    );
    expect(schema.safeParse({ created_at_from: "2026-01-01", created_at_to: "2026-01-01" }).success).toBe(
      true,
    );
  });
});

describe("slugs", () => {
  it("strip diacritics, transliterate, lowercase and collapse separators", () => {
    expect(slugify("  Café Niño — Édition 2026!  ")).toBe("cafe-nino-edition-2026");
    expect(slugify("Ωμέγα Щука")).toBe("omega-shchuka");
    expect(slugify("***")).toBe("");
    expect(slugify("a".repeat(150))).toHaveLength(100);
  });

  it("suffix collisions with -2, -3 within 100 characters", () => {
    expect(slugCandidates("shoe", 3)).toEqual(["shoe", "shoe-2", "shoe-3"]);
    expect(slugCandidates("a".repeat(100), 2)[1]).toBe(`${"a".repeat(98)}-2`);
  });
});

describe("money and markets", () => {
  it("render amounts at a fixed scale without floats", () => {
    expect(toScale("10.5", 2)).toBe("10.50");
    expect(toScale("0012", 2)).toBe("12.00");
    expect(toScale("-12.5", 2)).toBe("-12.50");
    expect(toScale("1.23456", 5)).toBe("1.23456");
    expect(toScale("99999999999.99", 2)).toBe("99999999999.99");
    expect(toScale("0.50", 2)).toBe("0.50");
    expect(toScale("00.50", 2)).toBe("0.50");
    expect(toScale("-0.00", 2)).toBe("0.00");
    expect(toScale("12.345", 2)).toBe("12.34");
  });

  it("resolve locales to markets once each", () => {
    expect(marketsOfLocales(["es-ES", "ca-ES", "en-GB", "nl-NL", "fr-FR"])).toEqual([
      "market_es",
      "market_en",
      "market_fr",
    ]);
  });
});
