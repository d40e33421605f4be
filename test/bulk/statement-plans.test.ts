import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { bulkFeedEntries } from "../../src/async/bulk/feed-entries.ts";
import type { JobRow } from "../../src/async/bulk/types.ts";
import { BULK_OPERATIONS } from "../../src/resources/job-operations.ts";
import { catalogStatements } from "../support/plan-catalog.ts";
import { largeCatalogOverDemoStatistics, unwantedPlans } from "../support/plan-survey.ts";
import { type Captured, recordingD1, tableScans } from "../support/query-plans.ts";
import {
  estimatedRows,
  STATISTICS_STATES,
  type StatRow,
  useStatistics,
} from "../support/statistics-states.ts";
import { type CatalogFacts, type FactVariant, planCases } from "./statement-plan-cases.ts";

/**
 * Every statement the four bulk processors issue (their lookups and the writes of their plans),
 * explained against a catalog of 3,000 products under each planner-statistics state: none, fresh,
 * and stale (the demo seed's: the planner believes `variants` has 120 rows, and without a stated
 * join order joins a chunk's `json_each` as the inner loop of a variants scan: 2.6 s for 2,000 keys
 * on 4,353 variants). A statement that reads a whole table (`SCAN <table>`) takes time
 * proportional to the catalog per chunk: on 36,000 variants a price-clearing chunk of 200 records
 * took 12 s and a translation-clearing one 25 s, against D1's 30 s per batch. Only the chunk's own
 * rows (`json_each`, a virtual table) may be scanned.
 */
const PRODUCTS = 3000; // 2 variants each
/** Variants of the demo seed, which the stale statistics were taken on (50× fewer). */
const DEMO_VARIANTS = 120;
const REFERENCES = 500; // suppliers, brands, categories of the grown catalog

const variant = (id: number): FactVariant => ({
  id,
  internalId: `PV-${id}`,
  ean: `PE${id}`,
  sku: `PSKU-${id}`,
  supplierInternalId: `PS-${1 + (Math.floor((id + 1) / 2) % 499)}`,
});

const FACTS: CatalogFacts = {
  products: [10, 11, 12, 13].map((id) => ({ id, internalId: `PP-${id}`, variants: [variant(2 * id - 1)] })),
  brandId: 7,
  supplierId: REFERENCES,
  categoryIds: [3, 4],
  priceListId: 1,
  pricedVariants: [301, 311, 321, 331, 341, 351, 361, 371].map(variant),
  unpricedVariants: [302, 304, 306, 308].map(variant),
};

/** Lookups and writes of every representative chunk (the writes are planned, not run). */
async function captureStatements(): Promise<Captured[]> {
  const dialect = new SQLiteSyncDialect();
  const captured: Captured[] = [];
  for (const c of planCases(FACTS, "PLAN")) {
    const job = { id: crypto.randomUUID(), type: c.type, params: c.params } as unknown as JobRow;
    const ctx = {
      db: null as never,
      env: { ...env, DB: recordingD1(env.DB, captured, () => c.name) },
      job,
      today: "2026-01-01",
    };
    const plan = await BULK_OPERATIONS[c.type].processor.plan(
      ctx,
      c.records.map((data, index) => ({ index, data })),
    );
    // Every record succeeds, so every write branch of the case is in the plan.
    expect(
      plan.outcomes.filter((o) => !o.ok),
      c.name,
    ).toEqual([]);
    // Before the writes, a real run's checks of which rows they would change (change-checks.ts).
    const checks = plan.changeChecks?.() ?? [];
    // The count of unchanged records is read in the same batch, after the writes.
    const unchanged = plan.unchanged ? [sql`SELECT ${plan.unchanged}`] : [];
    // Then its change feed entries (src/async/bulk/feed-entries.ts).
    const feed = plan.ops && plan.stamp ? bulkFeedEntries(plan.ops, plan.stamp) : [];
    for (const statement of [...checks, ...plan.statements, ...unchanged, ...feed]) {
      const { sql: text, params } = dialect.sqlToQuery(statement);
      captured.push({ source: c.name, sql: text, params });
    }
  }
  return captured;
}

describe("bulk statements on a large catalog", () => {
  let captured: Captured[] = [];
  let stale: StatRow[] = [];
  beforeAll(async () => {
    stale = await largeCatalogOverDemoStatistics(catalogStatements(PRODUCTS));
    captured = await captureStatements();
  }, 60_000);

  it("cover every related table's delete, insert and update", () => {
    const written = new Set(
      captured.flatMap((c) => {
        const m = /^\s*(DELETE FROM|INSERT INTO|UPDATE) "?(\w+)"?/.exec(c.sql);
        return m ? [`${m[1]} ${m[2]}`] : [];
      }),
    );
    for (const table of [
      "product_translations",
      "product_images",
      "product_categories",
      "variant_translations",
      "variant_prices",
      "price_list_variant_prices",
    ]) {
      expect(written, table).toContain(`DELETE FROM ${table}`);
      expect(written, table).toContain(`INSERT INTO ${table}`);
    }
    for (const table of ["products", "variants", "variant_prices", "price_list_variant_prices"]) {
      expect(written, table).toContain(`UPDATE ${table}`);
    }
    expect(written).toContain("INSERT INTO change_feed");
  });

  it("are planned under statistics of none, of a catalog 50× smaller, and of the catalog as it is", async () => {
    await useStatistics("stale", stale);
    expect(await estimatedRows("variants")).toBe(DEMO_VARIANTS);
    await useStatistics("fresh", stale);
    expect(await estimatedRows("variants")).toBe(2 * PRODUCTS);
    await useStatistics("none", stale);
    expect(await estimatedRows("variants")).toBeUndefined();
  });

  for (const state of STATISTICS_STATES) {
    it(`never scan a table, with ${state} statistics: each lookup and write searches an index per chunk row`, async () => {
      expect(captured.length).toBeGreaterThan(50);
      const scans = await unwantedPlans(state, stale, captured, (_statement, plan) => tableScans(plan));
      expect(scans, `statements scanning a table:\n${scans.join("\n")}`).toEqual([]);
    });
  }
});
