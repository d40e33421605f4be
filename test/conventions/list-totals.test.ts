import { env } from "cloudflare:test";
import { getTableName } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { payloadKey } from "../../src/async/bulk/chunking.ts";
import { runJobRetention } from "../../src/async/bulk/retention.ts";
import { RESOURCES } from "../../src/resources/index.ts";
import { onJobFinalized } from "../../src/resources/webhooks/job-finalized.ts";
import { rowsRead } from "../support/answers.ts";
import { api } from "../support/api.ts";
import {
  createBrandRow,
  createCategoryRow,
  createProduct,
  createSupplierRow,
} from "../support/factories/catalog.ts";
import { createContact } from "../support/factories/contacts.ts";
import { jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

/** The top-level lists (a sub-list is always limited to its parent) and their tables. */
const LISTS = RESOURCES.map((r) => r.resource)
  .filter((r) => !r.parent)
  .map((r) => ({ path: `/api/v1${r.path}`, table: getTableName(r.table), filters: r.filters ?? {} }));

const tableRows = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM "${table}"`).first<{ n: number }>())?.n ?? 0;

/** The list's `pagination.total` without any filter (contacts: its required view, counted as filtered). */
async function listTotal(path: string) {
  const res = await api(`${path}${path.includes("?") ? "&" : "?"}per_page=1`);
  expect(res.status, res.text).toBe(200);
  return res.json.pagination.total as number;
}

/** Its total equals the table's rows, checked after a write. */
async function expectExact(table: string) {
  const list = LISTS.find((l) => l.table === table);
  if (!list) throw new Error(`no top-level list of ${table}`);
  expect(await listTotal(list.path), table).toBe(await tableRows(table));
}

describe("an unfiltered list's total is the row count kept with every write", () => {
  it("every top-level list without a required filter answers its table's row count", async () => {
    await createProduct();
    await createBrandRow();
    await createCategoryRow();
    await createSupplierRow();
    const checked = [];
    for (const list of LISTS) {
      if (Object.values(list.filters).some((f) => f.required)) continue;
      expect(await listTotal(list.path), list.path).toBe(await tableRows(list.table));
      checked.push(list.table);
    }
    expect(checked).toEqual(
      expect.arrayContaining(["brands", "categories", "suppliers", "products", "orders", "reviews", "jobs"]),
    );
  });

  it("reads the kept count, not the table: the list's rows read do not grow with the table", async () => {
    // Computed each time (the edge cache would answer the first without reading anything).
    const computed = { headers: { "cache-control": "no-cache" } };
    const before = await api("/api/v1/suppliers?per_page=1", computed);
    for (let i = 0; i < 25; i++) await createSupplierRow();
    const after = await api("/api/v1/suppliers?per_page=1", computed);
    expect(after.json.pagination.total).toBe(before.json.pagination.total + 25);
    expect(rowsRead(after.headers)).toBeGreaterThan(0);
    expect(rowsRead(after.headers)).toBe(rowsRead(before.headers));
  });

  it("a create route counts its row", async () => {
    const before = await listTotal("/api/v1/brands");
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("Counted"), translations: {} },
    });
    expect(res.status).toBe(201);
    expect(await listTotal("/api/v1/brands")).toBe(before + 1);
    await expectExact("brands");
  });

  it("a delete route uncounts its row", async () => {
    const created = await api("/api/v1/webhooks", {
      method: "POST",
      body: { url: `${inject("fixtureOrigin")}/webhooks/ok/${unique("count")}`, events: ["job.done"] },
    });
    expect(created.status, created.text).toBe(201);
    const before = await listTotal("/api/v1/webhooks");
    expect((await api(`/api/v1/webhooks/${created.json.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await listTotal("/api/v1/webhooks")).toBe(before - 1);
    await expectExact("webhooks");
  });

  it("a bulk job counts the products it creates and not the ones it updates; accepting it counts the job", async () => {
    const existing = unique("OLD");
    await createProduct({ internalId: existing });
    const before = await listTotal("/api/v1/products");
    const jobsBefore = await listTotal("/api/v1/jobs");
    const record = (internalId: string) => ({
      internal_id: internalId,
      translations: { "es-ES": { name: unique("Contado") } },
      variants: [
        { sku: unique("SKU"), prices: { market_es: { list_price: { amount: "9.90", currency: "EUR" } } } },
      ],
    });
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: [
        record(unique("NEW")),
        record(unique("NEW")),
        { internal_id: existing, translations: { "es-ES": { name: unique("Renombrado") } } },
      ],
      options: { match_by: "internal_id" },
    });
    expect((await waitForJob(jobId)).status, JSON.stringify(await jobLogs(jobId))).toBe("done");
    expect(await listTotal("/api/v1/products")).toBe(before + 2);
    expect(await listTotal("/api/v1/jobs")).toBe(jobsBefore + 1);
    await expectExact("products");
    await expectExact("jobs");
  });

  it("the retention cron uncounts the jobs it deletes", async () => {
    const old = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO jobs (id, type, status, params, payload_key, chunk_count, total_records, created_at)
       VALUES (?, 'variants_bulk_update', 'done', '{}', ?, 1, 1, '2020-01-01T00:00:00Z')`,
    )
      .bind(old, payloadKey(old))
      .run();
    const before = await listTotal("/api/v1/jobs");
    await runJobRetention(env, Date.parse("2026-11-20T12:00:00Z"), onJobFinalized);
    expect(await listTotal("/api/v1/jobs")).toBeLessThanOrEqual(before - 1);
    await expectExact("jobs");
  });

  it("the contacts views (the list's required filter) keep their totals through inserts, updates and deletes", async () => {
    const viewRows = async (condition: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM contacts WHERE ${condition}`).first<{ n: number }>())
        ?.n;
    const expectViews = async () => {
      expect(await listTotal("/api/v1/contacts?view=customers")).toBe(await viewRows("is_customer = 1"));
      expect(await listTotal("/api/v1/contacts?view=subscribers")).toBe(
        await viewRows("mkt_state <> 'not_subscribed'"),
      );
    };
    const customers = await listTotal("/api/v1/contacts?view=customers");
    await createContact({ isCustomer: true, mktState: "subscribed" });
    const a = await createContact({ isCustomer: false, mktState: "unsubscribed" });
    const b = await createContact({ isCustomer: true, mktState: "not_subscribed" });
    expect(await listTotal("/api/v1/contacts?view=customers")).toBe(customers + 2);
    await expectViews();
    await env.DB.prepare("UPDATE contacts SET is_customer = 1, mkt_state = 'not_subscribed' WHERE id = ?")
      .bind(a)
      .run();
    await env.DB.prepare("UPDATE contacts SET orders_count = orders_count + 1 WHERE id = ?").bind(b).run();
    await expectViews();
    await env.DB.prepare("DELETE FROM contacts WHERE id IN (?, ?)").bind(a, b).run();
    await expectViews();
    // With another filter too, the matches are counted.
    const both = await api("/api/v1/contacts?view=customers&is_b2b=true&per_page=1");
    expect(both.json.pagination.total).toBe(await viewRows("is_customer = 1 AND is_b2b = 1"));
  });

  it("a contacts view reads its kept count: its rows read do not grow with the contacts", async () => {
    const before = await api("/api/v1/contacts?view=customers&per_page=1");
    for (let i = 0; i < 10; i++) await createContact({ isCustomer: true });
    const after = await api("/api/v1/contacts?view=customers&per_page=1");
    expect(after.json.pagination.total).toBe(before.json.pagination.total + 10);
    expect(rowsRead(after.headers)).toBeGreaterThan(0);
    expect(rowsRead(after.headers)).toBe(rowsRead(before.headers));
  });

  it("a filtered list still counts its matches", async () => {
    const supplierId = await createSupplierRow();
    await createProduct({ supplierId });
    await createProduct({ supplierId });
    const res = await api(`/api/v1/products?supplier_ids=${supplierId}&per_page=1`);
    expect(res.json.pagination.total).toBe(2);
  });
});
