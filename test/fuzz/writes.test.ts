import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { STANDARD_BODY_LIMIT } from "../../src/http/body-guard.ts";
import type { RouteMeta } from "../../src/http/route-table.ts";
import { roundTrips } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { bodyArb } from "./kit/bodies.ts";
import { DbWatch } from "./kit/db-watch.ts";
import { fuzzRuns, loopbackOnlyFetch, routes, sendChecked, statusReport } from "./kit/driver.ts";
import { authHeaders } from "./kit/headers.ts";
import { type OpenApi, openApi, operationOf, queryParams } from "./kit/openapi.ts";
import { describeRequest, type FuzzRequest } from "./kit/request.ts";
import { type BodyPools, urlPool } from "./kit/schema-values.ts";
import { fillPath, pathSegments, queryString } from "./kit/urls.ts";

/**
 * Property: for every synchronous write route (POST, PATCH, DELETE), random bodies (schema-guided
 * and mutated, arbitrary JSON, broken JSON, deep nesting, oversized, wrong content types), random
 * path ids and query strings never give a 5xx; every refusal is problem JSON listing the
 * problems; and a refused write leaves every table exactly as it was.
 */
const RUNS = fuzzRuns();
/** Routes that start a job (bulk operations, exports) are not synchronous writes: their jobs run on. */
const WRITES = routes().filter((r) => r.method !== "GET" && r.scope !== null && r.budget !== "bulk");

let doc: OpenApi;
let pools: BodyPools;
let pathIds: string[];
let restoreFetch: () => void;
const timings: string[] = [];

/**
 * A small data set made through the API and the factories (not the demo seed): every write route
 * has targets and references, and the fingerprint of every table stays cheap to take per case.
 */
async function seedTargets(fixture: string) {
  const created = async (path: string, body: unknown) => {
    const res = await api(path, { method: "POST", body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.json.id as number;
  };
  const brand = await created("/api/v1/brands", {
    name: "Fuzz brand",
    internal_id: "fuzz-a",
    translations: {},
  });
  await created("/api/v1/brands", { name: "Other brand", slug: "fuzz-b", translations: { "es-ES": {} } });
  const root = await created("/api/v1/categories", {
    status: "published",
    internal_id: "fuzz-cat",
    translations: { "es-ES": { name: "Raíz" }, "en-GB": { name: "Root" } },
  });
  await created("/api/v1/categories", {
    status: "unpublished",
    parent_id: root,
    translations: { "es-ES": { name: "Hija" } },
  });
  const supplier = await created("/api/v1/suppliers", { name: "Fuzz supplier", internal_id: "SUP-FUZZ" });
  await created("/api/v1/price-lists", {
    internal_id: "PL-FUZZ",
    is_active: true,
    global_discount: "5",
    category_discounts: [{ categories: [root], discount: "10" }],
    brand_discounts: [{ brands: [brand], discount: "2.5" }],
  });
  const product = await createProduct({ brandId: brand, supplierId: supplier, variants: [{}, {}] });
  await created("/api/v1/reviews", {
    locale: "es-ES",
    content: "Bien",
    reviewer_email: "ana@example.com",
    type: "product",
    product_id: product.id,
    variant_id: product.variantIds[0],
  });
  await created("/api/v1/reviews", {
    locale: "en-GB",
    content: "Ok",
    reviewer_email: "b@example.com",
    type: "store",
  });
  const hook = await created("/api/v1/webhooks", {
    url: `${fixture}/webhooks/ok/fuzz-writes`,
    events: ["job.done"],
  });
  return {
    ids: [brand, root, supplier, hook, product.id, ...product.variantIds],
    named: [
      [/categor|parent/, [root]],
      [/brand/, [brand]],
      [/supplier/, [supplier]],
      [/^product/, [product.id]],
      [/^variant/, [product.variantIds[0] as number]],
    ] as [RegExp, number[]][],
  };
}

beforeAll(async () => {
  restoreFetch = loopbackOnlyFetch();
  const fixture = inject("fixtureOrigin");
  doc = await openApi();
  const { ids, named } = await seedTargets(fixture);
  pathIds = [...new Set(["1", "2", "3", "4", ...ids.map(String)])];
  pools = {
    ids: [...new Set([1, 2, 3, 4, ...ids, 999_999])],
    named,
    uniques: ["fuzz-a", "fuzz-b", "Fuzz-A", "SUP-FUZZ", "PL-FUZZ", "fuzz-cat", "raiz"],
    urls: urlPool(fixture),
  };
}, 60_000);

afterAll(() => {
  restoreFetch();
  console.log(`fuzz writes (${RUNS} cases per route):\n  ${timings.join("\n  ")}`);
});

function requestArb(route: RouteMeta): fc.Arbitrary<FuzzRequest> {
  const op = operationOf(doc, route);
  const schema = op?.requestBody?.content?.["application/json"]?.schema;
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: queryString(queryParams(doc, route), pathIds) },
  );
  const body = schema
    ? bodyArb(schema, { doc, pools, mutation: 1 }, STANDARD_BODY_LIMIT).map((b) => b as typeof b | null)
    : fc.option(
        fc.record({
          text: fc.constantFrom("", "{}", '{"a":1}'),
          contentType: fc.constant("application/json"),
        }),
        {
          freq: 2,
        },
      );
  return fc
    .tuple(pathSegments(route, pathIds), query, authHeaders(route.method), body)
    .map(([seg, q, headers, b]) => {
      const h = { ...headers };
      if (b?.contentType) h["content-type"] = b.contentType;
      return {
        method: route.method,
        url: `${fillPath(route, seg)}${q ? `?${q}` : ""}`,
        headers: h,
        body: b?.text,
      };
    });
}

describe("fuzz: every synchronous write route", () => {
  it("covers every write route of the route table", () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(12);
  });

  for (const route of WRITES) {
    it(`${route.method} ${route.path}`, async () => {
      const started = Date.now();
      const statuses = new Map<number, number>();
      let checkMs = 0;
      const watch = new DbWatch();
      await watch.start();
      await fc.assert(
        fc.asyncProperty(requestArb(route), async (req) => {
          const res = await sendChecked(req, statuses);
          if (res.status < 400) {
            const t = Date.now();
            await watch.accept();
            checkMs += Date.now() - t;
            return;
          }
          const t = Date.now();
          const changed = await watch.refuse(roundTrips(res.headers));
          checkMs += Date.now() - t;
          if (changed.length > 0) {
            throw new Error(
              `refused write (${res.status}) changed ${changed.join(", ")}\n  request: ${describeRequest(req)}\n  answer: ${res.text.slice(0, 300)}`,
            );
          }
        }),
        { numRuns: RUNS },
      );
      timings.push(
        `${route.method} ${route.path}: ${Date.now() - started} ms (${checkMs} ms checking the database: ${watch.taken} full fingerprints, ${watch.skipped} refusals without D1 round trips), statuses ${statusReport(statuses)}`,
      );
    }, 900_000);
  }
});

describe("regressions found by fuzzing", () => {
  it("gives a brand with a name over 50 characters a generated slug (D1 refuses GLOB patterns over 50 bytes)", async () => {
    const name = `A brand with a rather long name that goes on ${"and on ".repeat(5)}`;
    const res = await api("/api/v1/brands?fields=slug", { method: "POST", body: { name, translations: {} } });
    expect(res.status).toBe(201);
    expect(res.json.slug).toBe(
      "a-brand-with-a-rather-long-name-that-goes-on-and-on-and-on-and-on-and-on-and-on",
    );
  });

  it("shortens a 100-character generated slug to make room for its suffix, past taken candidates", async () => {
    const name = "z".repeat(255);
    const slugs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api("/api/v1/brands?fields=slug", {
        method: "POST",
        body: { name, translations: {} },
      });
      expect(res.status).toBe(201);
      slugs.push(res.json.slug);
    }
    expect(slugs).toEqual([
      "z".repeat(100),
      `${"z".repeat(98)}-2`,
      `${"z".repeat(98)}-3`,
      `${"z".repeat(98)}-4`,
    ]);
  });

  it("generates category slugs from long names in every locale", async () => {
    const name = "Categoría con un nombre larguísimo para probar los límites del generador";
    for (let i = 0; i < 2; i++) {
      const res = await api("/api/v1/categories?fields=slug&locales=es-ES", {
        method: "POST",
        body: { status: "published", translations: { "es-ES": { name } } },
      });
      expect(res.status).toBe(201);
      expect(res.json.translations["es-ES"].slug).toBe(
        i === 0
          ? "categoria-con-un-nombre-larguisimo-para-probar-los-limites-del-generador"
          : "categoria-con-un-nombre-larguisimo-para-probar-los-limites-del-generador-2",
      );
    }
  });
});
