import { env } from "cloudflare:test";
import { getTableName } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnyResource } from "../../src/conventions/resource.ts";
import { RESOURCES } from "../../src/resources/index.ts";
import { api } from "../support/api.ts";
import { catalogStatements, platformStatements } from "../support/plan-catalog.ts";
import { largeCatalogOverDemoStatistics, unwantedPlans } from "../support/plan-survey.ts";
import { type Captured, recordingD1, tableScans } from "../support/query-plans.ts";
import { STATISTICS_STATES, type StatRow } from "../support/statistics-states.ts";
import { FIXTURES } from "./fixtures.ts";

/**
 * The read engine's statements (every resource's page, count, loader and include queries, of a
 * list, each sort, a deep page, a get with every include, and lists filtered through related rows),
 * explained on a 3,000-product catalog with 3,000 finished jobs under each planner-statistics
 * state: none, stale (the demo seed's) and fresh. A statement that reads a whole catalog table costs time in the catalog's size on every
 * request; only a page's own ordered walk may read a table from its start, and it stops at `LIMIT`.
 */
const PRODUCTS = 3000;

/**
 * A value of each filter through related rows, matching a few rows of the catalog (`category_ids`:
 * 12 products): the list is then driven from those rows' matches and reads no table whole.
 */
const RELATED_FILTERS: Record<string, Record<string, string>> = {
  products: { sku: "PSKU-7", ean: "PE7", slug: "product-7", category_ids: "3" },
  categories: { slug: "category-7" },
  "price-list-variant-prices": { supplier_internal_id: "PS-7" },
};

/** The id of an existing row (or parent row) of the platform's resources; 1 for the others. */
const ROW_IDS: Record<string, string> = {
  jobs: "00000000-0000-4000-8000-000000000001",
  job_logs: "00000000-0000-4000-8000-000000000001",
  webhooks: "900000",
  webhook_deliveries: "900000",
};

const readPaths = (resource: AnyResource): string[] => {
  const id = ROW_IDS[resource.name] ?? "1";
  const path = `/api/v1${resource.path.replace(/\{\w+\}/, id)}`;
  const required = FIXTURES[resource.name]?.query;
  const list = required ? `${path}?${required}&` : `${path}?`;
  const includes = Object.keys(resource.includes ?? {});
  const all = includes.length > 0 ? `&includes=${includes.join(",")}` : "";
  const sorts = Object.keys(resource.sorts);
  const related = Object.entries(resource.filters ?? {}).flatMap(([name, def]) => {
    const value = RELATED_FILTERS[resource.name]?.[name];
    if (value === undefined && def.matches) throw new Error(`${resource.name}: no value for ${name}`);
    return value === undefined ? [] : [`${list}${name}=${value}`];
  });
  return [
    `${list}per_page=50${all}`,
    `${list}per_page=100&page=12`,
    ...sorts.map((sort) => `${list}per_page=20&sort=${sort}_desc${all}`),
    ...related.flatMap((filtered) => [
      `${filtered}${all}`,
      ...sorts.map((sort) => `${filtered}&per_page=20&sort=${sort}_desc`),
    ]),
    ...(resource.parent
      ? []
      : [`${path}/${id}?${resource.localized === false ? "" : "locales=es-ES,en-GB"}${all}`]),
  ];
};

/** Every statement the reads of every resource prepare, each tagged with its request. */
async function captureReads(): Promise<{ captured: Captured[]; resources: Map<string, AnyResource> }> {
  const captured: Captured[] = [];
  const resources = new Map<string, AnyResource>();
  let current = "";
  const bindings = { ...env, DB: recordingD1(env.DB, captured, () => current) };
  for (const { resource } of RESOURCES) {
    for (const path of readPaths(resource)) {
      current = path;
      resources.set(path, resource);
      const res = await api(path, { bindings });
      // A deep page beyond a short list answers 404 after the same queries.
      expect([200, 404], `${path}: ${res.text.slice(0, 200)}`).toContain(res.status);
    }
  }
  return { captured, resources };
}

/** The store's settings: one row per enabled locale, read once per isolate. */
const SETTINGS = /^SCAN store(_translations)?\b/;
/** A kept count's fallback, counted only while `row_counts` has no row for the list (coalesce stops early). */
const KEPT_COUNT = /coalesce\(max\("n"\), \(SELECT count\(\*\) FROM "\w+"\)\)/;

/**
 * The whole-table reads of a statement's plan that are not a page's ordered walk. A page query (and
 * its copies as the subquery its loaders filter on: one per `LIMIT`) may walk the listed table in
 * the sort's order, and stops after the page. A temporary B-tree for the order means it read every
 * row first, which two sorts do by design, whatever the statistics: a translated sort (by a joined
 * column) and a nullable column's (rows without a value last, `(col IS NULL)` first in the order).
 * A list filtered through related rows reads only their matches: not even a walk of its own table
 * (which, the filter being selective, would read all of it before filling the page).
 */
function unorderedScans(statement: Captured, plan: string[], resource: AnyResource): string[] {
  if (KEPT_COUNT.test(statement.sql)) return [];
  const scans = tableScans(plan).filter((step) => !SETTINGS.test(step));
  const sortsAll = plan.some((step) => step.startsWith("USE TEMP B-TREE FOR ORDER BY"));
  const sortName = /sort=(\w+)_desc/.exec(statement.source)?.[1];
  const sort = sortName === undefined ? undefined : resource.sorts[sortName];
  const wholeSortByDesign = sort !== undefined && (!("column" in sort) || !sort.column.notNull);
  if (sortsAll && !wholeSortByDesign) return scans;
  const filtered = Object.keys(RELATED_FILTERS[resource.name] ?? {}).some((name) =>
    new RegExp(`[?&]${name}=`).test(statement.source),
  );
  let walks = filtered ? 0 : (statement.sql.match(/ limit \?/gi) ?? []).length;
  const own = new RegExp(`^SCAN ${getTableName(resource.table)}\\b`);
  return scans.filter((step) => {
    if (own.test(step) && walks > 0) {
      walks--;
      return false;
    }
    return true;
  });
}

describe("read statements on a large catalog", () => {
  let stale: StatRow[] = [];
  let captured: Captured[] = [];
  let resources = new Map<string, AnyResource>();
  beforeAll(async () => {
    stale = await largeCatalogOverDemoStatistics([
      ...catalogStatements(PRODUCTS),
      ...platformStatements(PRODUCTS),
    ]);
    ({ captured, resources } = await captureReads());
  }, 60_000);

  it("cover every catalog and commerce resource's list, sorts, deep page and get", () => {
    const sources = new Set(captured.map((c) => c.source));
    expect(sources.size).toBe(resources.size);
    expect(captured.length).toBeGreaterThan(100);
  });

  for (const state of STATISTICS_STATES) {
    it(`read no catalog table whole, with ${state} statistics: every page, count, loader and include searches an index`, async () => {
      const scans = await unwantedPlans(state, stale, captured, (statement, plan) =>
        unorderedScans(statement, plan, resources.get(statement.source) as AnyResource),
      );
      expect(scans, `statements reading a table whole:\n${scans.join("\n")}`).toEqual([]);
    });
  }
});
