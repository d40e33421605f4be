import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../src/changes/feed-page.ts";
import { FEED_RETENTION_MS, purgeOldFeedEntries } from "../../src/changes/feed-retention.ts";
import { isoSeconds } from "../../src/lib/time.ts";
import { rowsRead } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

/*
 * DECISIONS §14, "Change feed": entries in commit order, written in the transaction of the change
 * by routes and bulk jobs alike, one per changed entity per commit (a variant's change also lists
 * its product), none for a bulk record that changed nothing, an opaque monotonic cursor, 7 days
 * kept (410 `cursor_expired` before), pages that read rows in proportion to the page.
 */

interface Entry {
  cursor: string;
  resource: string;
  id: number;
  internal_id: string | null;
  change: string;
  changed_at: string;
}

const OLD = "2020-01-01T00:00:00Z";

/** The cursor of the feed's end now: what a client that has read everything holds. */
async function head(): Promise<string> {
  const row = await env.DB.prepare("SELECT max(seq) AS s FROM change_feed").first<{ s: number | null }>();
  return encodeCursor(row?.s ?? 0);
}

/** Every entry after `cursor`, following `next_cursor` page by page. */
async function changesAfter(cursor: string, query = ""): Promise<Entry[]> {
  const out: Entry[] = [];
  let after = cursor;
  for (let page = 0; page < 100; page++) {
    const res = await api(`/api/v1/changes?after=${after}${query}`);
    expect(res.status, res.text).toBe(200);
    out.push(...(res.json.data as Entry[]));
    if (res.json.next_cursor === after) return out;
    after = res.json.next_cursor;
  }
  throw new Error("the feed did not end");
}

const listed = (entries: Entry[]) => entries.map((e) => `${e.resource}:${e.id}:${e.change}`);

async function run(path: string, body: Record<string, unknown>) {
  const job = await waitForJob(await submitBulk(path, body));
  if (job.summary.failed_records) console.log(JSON.stringify(await jobLogs(job.id)));
  expect(job.summary.failed_records, JSON.stringify(job)).toBe(0);
}

async function age(table: "products" | "variants" | "price_list_variant_prices") {
  await env.DB.prepare(`UPDATE ${table} SET updated_at = ?`).bind(OLD).run();
}

describe("change feed: route writes", () => {
  it("a created and then changed brand is listed once per commit, in commit order", async () => {
    const from = await head();
    const internalId = unique("BR");
    const created = await api("/api/v1/brands", {
      method: "POST",
      body: { name: `Feed ${internalId}`, internal_id: internalId, translations: {} },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const patched = await api(`/api/v1/brands/${id}`, { method: "PATCH", body: { name: "Renamed" } });
    expect(patched.status, patched.text).toBe(200);
    const entries = await changesAfter(from);
    expect(listed(entries)).toEqual([`brands:${id}:upserted`, `brands:${id}:upserted`]);
    expect(entries[0]).toMatchObject({ internal_id: internalId, changed_at: expect.stringMatching(/Z$/) });
    expect(entries[0]?.cursor).not.toBe(entries[1]?.cursor);
  });

  it("a supplier, a category, a review and a price list are listed by their own resource", async () => {
    const from = await head();
    const supplier = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Feed supplier", internal_id: unique("SUP") },
    });
    const category = await api("/api/v1/categories", {
      method: "POST",
      body: { status: "published", translations: { "es-ES": { name: unique("Cat") } } },
    });
    const list = await createPriceList();
    expect([supplier.status, category.status], supplier.text + category.text).toEqual([201, 201]);
    expect(listed(await changesAfter(from))).toEqual([
      `suppliers:${supplier.json.id}:upserted`,
      `categories:${category.json.id}:upserted`,
      `price_lists:${list}:upserted`,
    ]);
  });

  it("a write refused for an unknown id adds no entry", async () => {
    const from = await head();
    const res = await api("/api/v1/suppliers/99999999", { method: "PATCH", body: { name: "x" } });
    expect(res.status).toBe(404);
    expect(await changesAfter(from)).toEqual([]);
    // The same write on a supplier that exists is listed.
    const supplier = await createSupplierRow();
    expect(
      (await api(`/api/v1/suppliers/${supplier}`, { method: "PATCH", body: { name: "x" } })).status,
    ).toBe(200);
    expect(listed(await changesAfter(from))).toEqual([`suppliers:${supplier}:upserted`]);
  });

  it("removing a price list's fixed prices lists the price list, and removing none adds nothing", async () => {
    const list = await createPriceList();
    const p = await createProduct();
    await env.DB.prepare(
      "INSERT INTO price_list_variant_prices (price_list_id, variant_id, amount, currency) VALUES (?, ?, '9.99', 'EUR')",
    )
      .bind(list, p.variantIds[0])
      .run();
    const from = await head();
    expect((await api(`/api/v1/price-lists/${list}/variant-prices`, { method: "DELETE" })).status).toBe(200);
    expect(listed(await changesAfter(from))).toEqual([`price_lists:${list}:upserted`]);
    const again = await head();
    expect((await api(`/api/v1/price-lists/${list}/variant-prices`, { method: "DELETE" })).status).toBe(200);
    expect(await changesAfter(again)).toEqual([]);
  });
});

describe("change feed: bulk jobs", () => {
  it("a products job lists each product and variant it created, once per commit", async () => {
    const supplier = await createSupplierRow();
    const internalId = unique("FP");
    const from = await head();
    await run("/api/v1/products/bulk", {
      products: [
        {
          internal_id: internalId,
          supplier_id: supplier,
          translations: { "es-ES": { name: `Producto ${internalId}` } },
          variants: [
            { internal_id: `${internalId}-A`, sku: `${internalId}-A` },
            { internal_id: `${internalId}-B`, sku: `${internalId}-B` },
          ],
        },
      ],
      options: { match_by: "internal_id" },
    });
    const entries = await changesAfter(from);
    const product = entries.filter((e) => e.resource === "products");
    const variants = entries.filter((e) => e.resource === "variants");
    expect(product.map((e) => e.internal_id)).toEqual([internalId]);
    expect(variants.map((e) => e.internal_id).sort()).toEqual([`${internalId}-A`, `${internalId}-B`]);
  });

  it("a variant's change lists the variant and its product; an unchanged record adds nothing", async () => {
    const p = await createProduct({ variants: [{}, {}] });
    const [a] = p.variantIds as [number, number];
    await age("variants");
    await age("products");
    const from = await head();
    await run("/api/v1/variants/bulk", {
      variants: [{ id: a, warehouse_stock: 77 }],
      options: { match_by: "id" },
    });
    expect(listed(await changesAfter(from)).sort()).toEqual([
      `products:${p.id}:upserted`,
      `variants:${a}:upserted`,
    ]);
    await age("variants");
    await age("products");
    const again = await head();
    await run("/api/v1/variants/bulk", {
      variants: [{ id: a, warehouse_stock: 77 }],
      options: { match_by: "id" },
    });
    expect(await changesAfter(again)).toEqual([]);
  });

  it("a price-list prices job lists the price list when it changed a price, not when it changed none", async () => {
    const list = await createPriceList();
    const p = await createProduct();
    const prices = [{ variant_id: p.variantIds[0], price: { amount: "5.00", currency_code: "EUR" } }];
    const path = `/api/v1/price-lists/${list}/variant-prices/bulk`;
    const from = await head();
    await run(path, { prices, options: { match_by: "variant_id", mode: "upsert" } });
    expect(listed(await changesAfter(from))).toEqual([`price_lists:${list}:upserted`]);
    await age("price_list_variant_prices");
    const again = await head();
    await run(path, { prices, options: { match_by: "variant_id", mode: "upsert" } });
    expect(await changesAfter(again)).toEqual([]);
  });

  it("linking identifiers lists the variant and the product it gave internal ids", async () => {
    const ean = unique("FE");
    const p = await createProduct({ internalId: null, variants: [{ ean, internalId: null }] });
    const [variant] = p.variantIds as [number];
    const product = unique("FLP");
    const from = await head();
    await run("/api/v1/products/link-identifiers", {
      items: [{ ean, product_internal_id: product, variant_internal_id: unique("FLV") }],
    });
    const entries = await changesAfter(from);
    expect(listed(entries).sort()).toEqual([`products:${p.id}:upserted`, `variants:${variant}:upserted`]);
    expect(entries.find((e) => e.resource === "products")?.internal_id).toBe(product);
  });

  it("a dry run adds no entry", async () => {
    const p = await createProduct();
    const from = await head();
    const body = (dryRun: boolean) => ({
      // Not the factory's 5: the real run must change the variant to be listed.
      variants: [{ id: p.variantIds[0], warehouse_stock: 6 }],
      options: { match_by: "id", dry_run: dryRun },
    });
    await run("/api/v1/variants/bulk", body(true));
    expect(await changesAfter(from)).toEqual([]);
    // The same payload run for real is listed.
    await run("/api/v1/variants/bulk", body(false));
    expect(listed(await changesAfter(from)).sort()).toEqual([
      `products:${p.id}:upserted`,
      `variants:${p.variantIds[0]}:upserted`,
    ]);
  });

  it("a feed read while a bulk job commits misses no entity changed after its cursor", {
    timeout: 60_000,
  }, async () => {
    const supplier = await createSupplierRow();
    const prefix = unique("FC");
    const records = Array.from({ length: 600 }, (_, i) => ({
      internal_id: `${prefix}-${i}`,
      supplier_id: supplier,
      translations: { "es-ES": { name: `Producto ${prefix} ${i}` } },
      variants: [{ internal_id: `${prefix}-${i}-A`, sku: `${prefix}-${i}-A` }],
    }));
    const from = await head();
    const jobId = await submitBulk("/api/v1/products/bulk", {
      products: records,
      options: { match_by: "internal_id" },
    });
    const seen = new Set<string>();
    let after = from;
    let final = false;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await api(`/api/v1/changes?after=${after}&per_page=37&resources=products`);
      expect(res.status, res.text).toBe(200);
      for (const e of res.json.data as Entry[]) seen.add(e.internal_id ?? "");
      after = res.json.next_cursor;
      if (final && res.json.data.length === 0) break;
      const job = await api(`/api/v1/jobs/${jobId}`);
      if (["done", "done_with_errors", "failed"].includes(job.json.status)) final = true;
      // Timers let the queue consumer take its batches (as waitForJob's polling does).
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(final, JSON.stringify((await api(`/api/v1/jobs/${jobId}`)).json)).toBe(true);
    expect((await api(`/api/v1/jobs/${jobId}`)).json.summary.succeeded_records).toBe(records.length);
    expect(records.filter((r) => !seen.has(r.internal_id))).toEqual([]);
  });
});

describe("change feed: cursors, parameters and retention", () => {
  it("pages follow next_cursor without gaps or repeats, and per_page bounds a page", async () => {
    const from = await head();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api("/api/v1/suppliers", {
        method: "POST",
        body: { name: `S${i}`, internal_id: unique("SUP") },
      });
      ids.push(res.json.id);
    }
    const all = await changesAfter(from, "&per_page=2");
    expect(all.map((e) => e.id)).toEqual(ids);
    const first = await api(`/api/v1/changes?after=${from}&per_page=2`);
    expect(first.json.data).toHaveLength(2);
    expect(first.json.next_cursor).toBe(first.json.data[1].cursor);
  });

  it("cursors grow with commit order, as numbers and as text", async () => {
    const from = await head();
    for (let i = 0; i < 12; i++)
      await api("/api/v1/suppliers", { method: "POST", body: { name: `C${i}`, internal_id: unique("SUP") } });
    const cursors = (await changesAfter(from)).map((e) => e.cursor);
    expect(cursors).toHaveLength(12);
    expect([...cursors].sort()).toEqual(cursors);
    expect(new Set(cursors).size).toBe(12);
  });

  it("resources keeps only the entries of those resources", async () => {
    const from = await head();
    const brand = await api("/api/v1/brands", { method: "POST", body: { name: "Only", translations: {} } });
    const supplier = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Not", internal_id: unique("SUP") },
    });
    expect([brand.status, supplier.status]).toEqual([201, 201]);
    expect(listed(await changesAfter(from, "&resources=brands,reviews"))).toEqual([
      `brands:${brand.json.id}:upserted`,
    ]);
  });

  it("a page reads rows in proportion to the page, not to the feed", async () => {
    const from = await head();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO change_feed (seq, resource, entity_id, change, changed_at)
       SELECT (SELECT coalesce(max(seq), 0) FROM change_feed) + i, 'brands', i, 'upserted', ? FROM n`,
    )
      .bind(isoSeconds())
      .run();
    const res = await api(`/api/v1/changes?after=${from}&per_page=10`);
    expect(res.json.data).toHaveLength(10);
    // The page's 10 rows and the feed's two ends (min and max of the rowid), not its 3,000 entries.
    expect(rowsRead(res.headers)).toBeLessThan(30);
  });

  it("unknown parameters, malformed cursors and a page size over 1,000 are 400", async () => {
    const res = await api("/api/v1/changes?after=not-a-cursor&per_page=1001&since=1");
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(["per_page", "since"]);
    const bad = await api("/api/v1/changes?after=c0000000000Z");
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe("invalid_parameter");
    const resources = await api("/api/v1/changes?resources=orders");
    expect(resources.status).toBe(400);
  });

  it("retention keeps 7 days and the newest entry; a cursor from before what it deleted is 410 cursor_expired", async () => {
    const stale = await head();
    await api("/api/v1/suppliers", { method: "POST", body: { name: "Old", internal_id: unique("SUP") } });
    const afterOld = await head();
    const now = Date.now();
    // Everything so far is 8 days old, then one recent change.
    await env.DB.prepare("UPDATE change_feed SET changed_at = ?")
      .bind(isoSeconds(now - FEED_RETENTION_MS - 86_400_000))
      .run();
    const recent = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "New", internal_id: unique("SUP") },
    });
    expect(await purgeOldFeedEntries(env.DB, now)).toBeGreaterThan(0);
    const expired = await api(`/api/v1/changes?after=${stale}`);
    expect(expired.status).toBe(410);
    expect(expired.json.code).toBe("cursor_expired");
    const kept = await api(`/api/v1/changes?after=${afterOld}`);
    expect(kept.status, kept.text).toBe(200);
    expect(listed(kept.json.data)).toEqual([`suppliers:${recent.json.id}:upserted`]);
    // Nothing recent at all: the newest entry stays, so seq never goes back.
    await env.DB.prepare("UPDATE change_feed SET changed_at = ?").bind(OLD).run();
    await purgeOldFeedEntries(env.DB, now);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM change_feed").first<{ n: number }>();
    expect(left?.n).toBe(1);
    expect((await api(`/api/v1/changes?after=${await head()}`)).status).toBe(200);
  });
});
