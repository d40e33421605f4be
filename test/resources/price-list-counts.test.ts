/**
 * A price list's `customers_count` and `variant_prices_count` are kept on its row by the child
 * tables' triggers (migration 0006), in the same transaction as every write, whoever writes: a page
 * of price lists reads them with its rows instead of counting every child row.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { rowsRead } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { changedOutsideTheService } from "../support/edge.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { createContact } from "../support/factories/contacts.ts";
import { createPriceList } from "../support/factories/price-lists.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";

/** The counts the API answers, which must be the ones kept on the list's row. */
async function counts(listId: number) {
  const res = await api(`/api/v1/price-lists/${listId}?fields=customers_count,variant_prices_count`);
  expect(res.status, res.text).toBe(200);
  const { customers_count, variant_prices_count } = res.json;
  const kept = await env.DB.prepare(
    "SELECT customers_count, variant_prices_count FROM price_lists WHERE id = ?",
  )
    .bind(listId)
    .first();
  expect(kept).toEqual({ customers_count, variant_prices_count });
  return { customers_count, variant_prices_count };
}

/** What the counts must be: the child rows themselves. */
async function childRows(listId: number) {
  const n = async (table: string) =>
    (
      await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE price_list_id = ?`)
        .bind(listId)
        .first<{ n: number }>()
    )?.n;
  return {
    customers_count: await n("price_list_customers"),
    variant_prices_count: await n("price_list_variant_prices"),
  };
}

async function pricesJob(listId: number, mode: "upsert" | "delete", prices: unknown[]) {
  const jobId = await submitBulk(`/api/v1/price-lists/${listId}/variant-prices/bulk`, {
    prices,
    options: { match_by: "variant_id", mode },
  });
  const job = await waitForJob(jobId);
  expect(job.status, JSON.stringify(job)).toBe("done");
}

const price = (variant_id: number, amount = "9.99") => ({
  variant_id,
  price: { amount, currency_code: "EUR" },
});

const addCustomer = async (listId: number, contactId: number) => {
  await env.DB.prepare("INSERT INTO price_list_customers (price_list_id, contact_id) VALUES (?, ?)")
    .bind(listId, contactId)
    .run();
  await changedOutsideTheService();
};

describe("price list counts kept with every write", () => {
  it("a new price list counts no customers and no variant prices", async () => {
    expect(await counts(await createPriceList())).toEqual({ customers_count: 0, variant_prices_count: 0 });
  });

  it("variant_prices_count follows the bulk job's upserts (an update counts once) and deletes", async () => {
    const listId = await createPriceList();
    const { variantIds } = await createProduct({ variants: [{}, {}, {}] });
    const [a, b, c] = variantIds as [number, number, number];
    await pricesJob(listId, "upsert", [price(a), price(b)]);
    expect((await counts(listId)).variant_prices_count).toBe(2);
    // b is updated, c created: one more price, not two.
    await pricesJob(listId, "upsert", [price(b, "7.50"), price(c)]);
    expect(await counts(listId)).toEqual(await childRows(listId));
    expect((await counts(listId)).variant_prices_count).toBe(3);
    await pricesJob(listId, "delete", [{ variant_id: a }]);
    expect((await counts(listId)).variant_prices_count).toBe(2);
  });

  it("deleting all of a list's variant prices answers and leaves a count of 0; other lists keep theirs", async () => {
    const listId = await createPriceList();
    const other = await createPriceList();
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    await pricesJob(
      listId,
      "upsert",
      variantIds.map((v) => price(v)),
    );
    await pricesJob(other, "upsert", [price(variantIds[0] as number)]);
    const res = await api(`/api/v1/price-lists/${listId}/variant-prices`, { method: "DELETE" });
    expect(res.json).toEqual({ deleted: 2 });
    expect((await counts(listId)).variant_prices_count).toBe(0);
    expect((await counts(other)).variant_prices_count).toBe(1);
  });

  it("rows removed by a foreign-key cascade (a variant, a contact deleted) leave the counts", async () => {
    const listId = await createPriceList();
    const { variantIds } = await createProduct({ variants: [{}, {}] });
    await pricesJob(
      listId,
      "upsert",
      variantIds.map((v) => price(v)),
    );
    const first = await createContact();
    const second = await createContact();
    await addCustomer(listId, first);
    await addCustomer(listId, second);
    expect(await counts(listId)).toEqual({ customers_count: 2, variant_prices_count: 2 });
    await env.DB.prepare("DELETE FROM variants WHERE id = ?")
      .bind(variantIds[0] as number)
      .run();
    await env.DB.prepare("DELETE FROM contacts WHERE id = ?").bind(first).run();
    await changedOutsideTheService();
    expect(await counts(listId)).toEqual({ customers_count: 1, variant_prices_count: 1 });
    expect(await counts(listId)).toEqual(await childRows(listId));
  });

  it("a row moved to another list leaves one count and joins the other", async () => {
    const from = await createPriceList();
    const to = await createPriceList();
    const contact = await createContact();
    await addCustomer(from, contact);
    await env.DB.prepare("UPDATE price_list_customers SET price_list_id = ? WHERE price_list_id = ?")
      .bind(to, from)
      .run();
    expect((await counts(from)).customers_count).toBe(0);
    expect((await counts(to)).customers_count).toBe(1);
  });

  it("a page of price lists reads its counts from its rows: rows read do not grow with the prices", async () => {
    const listId = await createPriceList();
    // Computed each time (the edge cache would answer the same page without reading anything).
    const page = () =>
      api(`/api/v1/price-lists?price_list_ids=${listId}`, { headers: { "cache-control": "no-cache" } });
    await page();
    const before = rowsRead((await page()).headers);
    const { variantIds } = await createProduct({ variants: Array.from({ length: 40 }, () => ({})) });
    await pricesJob(
      listId,
      "upsert",
      variantIds.map((v) => price(v)),
    );
    const res = await page();
    expect(res.json.data[0].variant_prices_count).toBe(40);
    expect(rowsRead(res.headers)).toBe(before);
  });
});
