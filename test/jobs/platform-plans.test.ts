import { env } from "cloudflare:test";
import { getTableName, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { WebhookMessage } from "../../src/async/deliveries/types.ts";
import * as schema from "../../src/db/schema/index.ts";
import { api } from "../support/api.ts";
import { stageJob } from "../support/jobs.ts";
import { catalogStatements, platformStatements } from "../support/plan-catalog.ts";
import { largeCatalogOverDemoStatistics, unwantedPlans } from "../support/plan-survey.ts";
import { type Captured, recordingD1, tableScans } from "../support/query-plans.ts";
import { deliverToQueue, recordingQueue, runScheduled } from "../support/queues.ts";
import { STATISTICS_STATES, type StatRow } from "../support/statistics-states.ts";

/**
 * Every statement outside the bulk processors and the read engine: single-record route writes,
 * idempotency keys, a bulk job's acceptance, ledger, finalization and webhook queueing, a webhook
 * delivery's bookkeeping, a cancel, a dry run's memory across chunks, and the cron's liveness sweep
 * and retention. Each is captured from the code that issues it, then explained under the three
 * statistics states on a catalog of 3,000 products and 3,000 finished jobs (9,000 log entries,
 * 3,000 deliveries, 3,000 idempotency keys). A whole-table read of a table that grows costs time in
 * its size on every request, chunk or cron run.
 */
const PRODUCTS = 3000;
const JOBS = 3000;
/** Tables of a few rows whatever the catalog: the store's settings, subscriptions, keys, kept counts. */
const SMALL = /^SCAN (store|store_translations|webhooks|api_keys|row_counts)\b/;

/**
 * The tables whose rows reference `table` by a foreign key. An INSERT's plan shows a scan of each
 * without an index on its key: SQLite's check of child rows a new parent row would satisfy, which
 * runs only while the statement has unresolved violations (`OP_FkIfZero` skips it otherwise; a
 * supplier insert took 0.04 ms beside 40,000 variants on node:sqlite). Never run, so not a read.
 */
function childTables(table: string): string[] {
  return Object.values(schema).flatMap((t) => {
    if (!is(t, SQLiteTable)) return [];
    const config = getTableConfig(t);
    const refs = config.foreignKeys.map((fk) => getTableName(fk.reference().foreignTable));
    return refs.includes(table) ? [config.name] : [];
  });
}

/** The scans in `plan` that read a growing table. */
function growingScans(statement: Captured, plan: string[]): string[] {
  const inserted = /^\s*insert into "?(\w+)/i.exec(statement.sql)?.[1];
  const children = inserted ? childTables(inserted) : [];
  return tableScans(plan).filter(
    (step) => !SMALL.test(step) && !children.includes(/^SCAN (\w+)/.exec(step)?.[1] ?? ""),
  );
}

interface Capture {
  captured: Captured[];
  /** Each step's label, in order: every one must have issued statements. */
  steps: string[];
}

async function captureStatements(): Promise<Capture> {
  const captured: Captured[] = [];
  const steps: string[] = [];
  let current = "";
  const jobs = recordingQueue<{ jobId: string; chunk: number }>();
  const hooks = recordingQueue<WebhookMessage>();
  const recorded = {
    ...env,
    DB: recordingD1(env.DB, captured, () => current),
    JOBS_QUEUE: jobs.queue as never,
    WEBHOOKS_QUEUE: hooks.queue,
  };
  const step = (label: string) => {
    current = label;
    steps.push(label);
  };
  const call = async (label: string, method: string, path: string, body?: unknown, key?: string) => {
    step(label);
    const headers: Record<string, string> = key ? { "idempotency-key": key } : {};
    const res = await api(path, { method, body, headers, bindings: recorded });
    expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
    return res.json;
  };
  /** Delivers every job message sent so far (and those they send) to the jobs consumer. */
  const drainJobs = async (label: string) => {
    step(label);
    for (let message = jobs.sent.shift(); message; message = jobs.sent.shift()) {
      await deliverToQueue("storefront-jobs", message, recorded);
    }
  };

  const brand = await call("brand create", "POST", "/api/v1/brands", {
    name: "Plan brand",
    translations: {},
  });
  await call("brand update", "PATCH", `/api/v1/brands/${brand.id}`, { name: "Plan brand 2" });
  await call("brand create with a stored image", "POST", "/api/v1/brands", {
    name: "Plan brand image",
    image_url: `${inject("fixtureOrigin")}/images/ok.png`,
    translations: {},
  });
  const category = await call("category create", "POST", "/api/v1/categories", {
    status: "published",
    parent_id: 3,
    translations: { "es-ES": { name: "Plan categoría" } },
  });
  await call("category update", "PATCH", `/api/v1/categories/${category.id}`, {
    translations: { "es-ES": { name: "Plan categoría 2" }, "en-GB": { name: "Plan category" } },
  });
  await call("category move", "PATCH", `/api/v1/categories/${category.id}`, { parent_id: 1 });
  const supplier = await call("supplier create", "POST", "/api/v1/suppliers", {
    name: "Plan supplier",
    internal_id: "PLAN-SUP",
  });
  await call("supplier update", "PATCH", `/api/v1/suppliers/${supplier.id}`, { name: "Plan supplier 2" });
  const review = await call("review create", "POST", "/api/v1/reviews", {
    locale: "es-ES",
    content: "Bien.",
    reviewer_email: "plan@example.test",
    type: "product",
    product_id: 7,
  });
  await call("review update", "PATCH", `/api/v1/reviews/${review.id}`, { rating: 4 });
  const list = await call("price list create", "POST", "/api/v1/price-lists", {
    internal_id: "PLAN-PL",
    is_active: true,
    global_discount: "5",
    category_discounts: [{ categories: [3], discount: "7" }],
    brand_discounts: [{ brands: [4], discount: "2" }],
  });
  await call("price list update", "PATCH", `/api/v1/price-lists/${list.id}`, { global_discount: "6" });
  await call("price list prices delete", "DELETE", `/api/v1/price-lists/${list.id}/variant-prices`);
  const hook = await call("webhook create", "POST", "/api/v1/webhooks", {
    url: `${inject("fixtureOrigin")}/webhooks/ok/plan-hook`,
    events: ["job.done", "job.done_with_errors", "job.failed"],
  });
  await call("webhook update", "PATCH", `/api/v1/webhooks/${hook.id}`, { description: "plans" });
  const failing = await call("webhook create (failing receiver)", "POST", "/api/v1/webhooks", {
    url: `${inject("fixtureOrigin")}/webhooks/failing/plan-hook`,
    events: ["job.done"],
  });
  const keyed = { name: "Plan keyed", translations: {} };
  await call("idempotency key first use", "POST", "/api/v1/brands", keyed, "plan-key-1");
  await call("idempotency key replay", "POST", "/api/v1/brands", keyed, "plan-key-1");

  const records = [11, 13, 15].map((id) => ({ id, warehouse_stock: 5 }));
  await call("job accept", "POST", "/api/v1/variants/bulk", {
    variants: records,
    options: { match_by: "id" },
  });
  await drainJobs("job chunk, ledger, finalize, webhooks queued");
  step("webhook delivery, success and retry");
  const queued = [...hooks.sent, ...hooks.batched.map((m) => m.body)];
  expect(queued.map((m) => m.webhookId).sort()).toEqual([hook.id, failing.id].sort());
  for (const message of queued) await deliverToQueue("storefront-webhooks", message, recorded);
  step("webhook dead letter");
  await deliverToQueue("storefront-webhooks-dlq", { ...(queued[0] as WebhookMessage), attempt: 9 }, recorded);
  const [pending] = await call("job accept (to cancel)", "POST", "/api/v1/variants/bulk", {
    variants: records,
    options: { match_by: "id" },
  });
  jobs.sent.length = 0;
  await call("job cancel", "POST", `/api/v1/jobs/${pending.job_id}/cancel`, {});
  await call("export accept, filtered through related rows", "POST", "/api/v1/products/export", {
    filters: {
      brand_ids: "2,3",
      sku: "PSKU-4",
      ean: "PE4",
      slug: "product-2",
      category_ids: "2",
      status: "published",
    },
  });
  await call("export accept, every variant as CSV", "POST", "/api/v1/variants/export", { format: "csv" });
  await drainJobs("export bounds, count, pages, commit and finalize");
  const exported = await call("export accept (to read)", "POST", "/api/v1/products/export", {
    filters: { product_ids: "5,6" },
  });
  await drainJobs("export of two products");
  step("export result");
  expect((await api(`/api/v1/jobs/${exported[0].job_id}/result`, { bindings: recorded })).status).toBe(200);
  const dry = [17, 19, 21, 23, 25].map((id) => ({ id, warehouse_stock: 6 }));
  jobs.sent.push({
    jobId: await stageJob("variants_bulk_update", dry, { options: { match_by: "id", dry_run: true } }, 2),
    chunk: 0,
  });
  await drainJobs("dry run memory across chunks");
  const lost = [27, 29, 31].map((id) => ({ id, warehouse_stock: 7 }));
  const failed = await stageJob("variants_bulk_update", lost, { options: { match_by: "id" } }, 2);
  step("job dead letter");
  await deliverToQueue("storefront-jobs", { jobId: failed, chunk: 0 }, recorded);
  jobs.sent.length = 0;
  await deliverToQueue("storefront-jobs-dlq", { jobId: failed, chunk: 1 }, recorded);
  // Accepted and never started: the sweep re-drives it.
  await stageJob("variants_bulk_update", lost, { options: { match_by: "id" } });
  await call("webhook delete", "DELETE", `/api/v1/webhooks/${hook.id}`);
  step("cron liveness sweep");
  await runScheduled("* * * * *", Date.now() + 3_600_000, recorded);
  step("cron retention, idempotency purge, delivery retention, statistics");
  await runScheduled("0 * * * *", Date.now() + 40 * 86_400_000, recorded);
  return { captured, steps };
}

describe("platform statements on a large catalog", () => {
  let stale: StatRow[] = [];
  let capture: Capture = { captured: [], steps: [] };
  beforeAll(async () => {
    stale = await largeCatalogOverDemoStatistics([
      ...catalogStatements(PRODUCTS),
      ...platformStatements(JOBS),
    ]);
    capture = await captureStatements();
  }, 60_000);

  it("cover route writes, idempotency keys, a job's life, deliveries, dry-run memory and the cron", () => {
    const issued = new Set(capture.captured.map((c) => c.source));
    expect(capture.steps.filter((s) => !issued.has(s))).toEqual([]);
  });

  for (const state of STATISTICS_STATES) {
    it(`read no growing table whole, with ${state} statistics`, async () => {
      // Once per SQL text: retention repeats its deletes per batch of jobs.
      const distinct = new Map(capture.captured.map((c) => [c.sql, c]));
      const explained = [...distinct.values()].filter((s) => !/^\s*(PRAGMA|ANALYZE)\b/i.test(s.sql));
      const scans = await unwantedPlans(state, stale, explained, growingScans);
      expect(scans, `statements reading a table whole:\n${scans.join("\n")}`).toEqual([]);
    });
  }
});
