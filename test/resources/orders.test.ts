import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { contactStatements } from "../../src/seed/contacts.ts";
import { contactCount, orderCount } from "../../src/seed/layout.ts";
import { orderStatements } from "../../src/seed/orders.ts";
import { ids, roundTrips } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createContact } from "../support/factories/contacts.ts";

const eur = (amount: string) => ({ amount, currency: "EUR" });

let seq = 700_000;
const next = () => ++seq;

/** A customer as the order tests know them: Catalan, subscribed, one order. */
function createBuyer(firstName: string | null, lastName: string | null) {
  const id = next();
  return createContact({
    id,
    email: `buyer${id}@example.test`,
    firstName,
    lastName,
    phone: "+34 600 000 001",
    preferredLocale: "ca-ES",
    mktState: "subscribed",
    ordersCount: 1,
    createdAt: "2025-04-01T08:30:00Z",
  });
}

interface LineSpec {
  taxRate?: string;
  quantity?: number;
  listGross?: string;
  finalGross?: string;
  finalNet?: string;
  total?: [string, string, string];
  discounts?: unknown[];
  services?: unknown[];
  position?: number;
}

interface OrderSpec {
  contactId?: number | null;
  createdAt?: string;
  paymentStatus?: "paid" | "unpaid";
  release?: "not_released" | "partially_released" | "released";
  fulfillment?: "fulfilled" | "partially_fulfilled" | "unfulfilled";
  delivery?: "shipment" | "store_pick_up";
  paidAt?: string | null;
  fulfilledAt?: string | null;
  canceledAt?: string | null;
  lines?: LineSpec[];
}

/** An order and its lines written straight to D1 (orders are read-only in this API). */
async function createOrder(spec: OrderSpec = {}) {
  const id = next();
  const stmts = [
    env.DB.prepare(
      `INSERT INTO orders (id, contact_id, email, locale, payment_status, warehouse_release_status, fulfillment_status,
         delivery_method, payment_method, payment_gateway, currency, total_gross, total_net, total_tax,
         shipping_gross, shipping_net, shipping_tax, fees_gross, fees_net, fees_tax, paid_at, fulfilled_at, canceled_at, created_at)
       VALUES (?, ?, ?, 'es-ES', ?, ?, ?, ?, 'card', 'stripe', 'EUR', '24.2', '20', '4.2', '4.95', '4.09', '0.86', '0', '0', '0', ?, ?, ?, ?)`,
    ).bind(
      id,
      spec.contactId ?? null,
      `order${id}@example.test`,
      spec.paymentStatus ?? "paid",
      spec.release ?? "released",
      spec.fulfillment ?? "fulfilled",
      spec.delivery ?? "shipment",
      spec.paidAt === undefined ? "2026-01-10T10:05:00Z" : spec.paidAt,
      spec.fulfilledAt === undefined ? "2026-01-12T09:00:00Z" : spec.fulfilledAt,
      spec.canceledAt ?? null,
      spec.createdAt ?? "2026-01-10T10:00:00Z",
    ),
  ];
  const lineIds: number[] = [];
  (spec.lines ?? []).forEach((line, i) => {
    const lineId = next();
    lineIds.push(lineId);
    const [gross, net, tax] = line.total ?? ["10", "8.26", "1.74"];
    stmts.push(
      env.DB.prepare(
        `INSERT INTO order_line_items (id, order_id, position, product_id, variant_id, sku, ean, display_name, tax_rate, quantity,
           list_price_gross, final_price_gross, final_price_net, total_gross, total_net, total_tax, discounts_applied, additional_services)
         VALUES (?, ?, ?, 12, 46, 'SF-0012-2', '8437000000461', 'Chaqueta Trail - M', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        lineId,
        id,
        line.position ?? i,
        line.taxRate ?? "21",
        line.quantity ?? 1,
        line.listGross ?? "10",
        line.finalGross ?? "10",
        line.finalNet ?? "8.26446",
        gross,
        net,
        tax,
        JSON.stringify(line.discounts ?? []),
        JSON.stringify(line.services ?? []),
      ),
    );
  });
  await env.DB.batch(stmts);
  return { id, lineIds };
}

const DEFAULT_KEYS = [
  "id",
  "created_at",
  "payment_status",
  "warehouse_release_status",
  "fulfillment_status",
  "delivery_method",
  "locale",
  "payment_method",
  "payment_gateway",
  "paid_at",
  "fulfilled_at",
  "canceled_at",
  "total",
  "shipping",
  "fees",
  "email",
];

/** The list restricted to the given orders, plus extra parameters. */
const list = (orderIds: number[], extra = "") =>
  api(`/api/v1/orders?order_ids=${orderIds.join(",")}${extra ? `&${extra}` : ""}`);

describe("order representation", () => {
  it("returns id and the default fields, amounts as gross/net/tax Money with 2 decimals", async () => {
    const { id } = await createOrder();
    const res = await api(`/api/v1/orders/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(DEFAULT_KEYS);
    expect(res.json).toMatchObject({
      id,
      created_at: "2026-01-10T10:00:00Z",
      payment_status: "paid",
      warehouse_release_status: "released",
      fulfillment_status: "fulfilled",
      delivery_method: "shipment",
      locale: "es-ES",
      payment_method: "card",
      payment_gateway: "stripe",
      paid_at: "2026-01-10T10:05:00Z",
      fulfilled_at: "2026-01-12T09:00:00Z",
      canceled_at: null,
      total: { gross: eur("24.20"), net: eur("20.00"), tax: eur("4.20") },
      shipping: { gross: eur("4.95"), net: eur("4.09"), tax: eur("0.86") },
      email: `order${id}@example.test`,
    });
  });

  it("always has fees, zeros when the order has none", async () => {
    const { id } = await createOrder();
    const res = await api(`/api/v1/orders/${id}?fields=fees`);
    expect(res.json).toEqual({ id, fees: { gross: eur("0.00"), net: eur("0.00"), tax: eur("0.00") } });
  });

  it("renders unpaid and unfulfilled orders with null paid_at and fulfilled_at", async () => {
    const { id } = await createOrder({
      paymentStatus: "unpaid",
      release: "not_released",
      fulfillment: "unfulfilled",
      paidAt: null,
      fulfilledAt: null,
    });
    const res = await api(`/api/v1/orders/${id}?fields=payment_status,paid_at,fulfilled_at`);
    expect(res.json).toEqual({ id, payment_status: "unpaid", paid_at: null, fulfilled_at: null });
  });

  it("gives line_items only through fields, each line with the exact item shape and 5-decimal unit prices", async () => {
    const { id, lineIds } = await createOrder({
      lines: [
        {
          taxRate: "21",
          quantity: 2,
          listGross: "89.9",
          finalGross: "79.9",
          finalNet: "66.03306",
          total: ["152.3", "125.87", "26.43"],
          discounts: [{ type: "voucher", amount: eur("10.00"), description: "Voucher WELCOME10" }],
          services: [
            {
              display_name: "Gift wrap",
              internal_id: "SRV-GIFT-WRAP",
              quantity: 1,
              unit_price: { gross: eur("2.5"), net: eur("2.06612") },
              tax_rate: "21",
            },
          ],
        },
      ],
    });
    expect((await api(`/api/v1/orders/${id}`)).json.line_items).toBeUndefined();
    const res = await api(`/api/v1/orders/${id}?fields=line_items`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      line_items: [
        {
          id: lineIds[0],
          product_id: 12,
          variant_id: 46,
          sku: "SF-0012-2",
          ean: "8437000000461",
          display_name: "Chaqueta Trail - M",
          tax_rate: "21.00",
          quantity: 2,
          unit_price: {
            list_price: { gross: eur("89.90000") },
            final_price: { gross: eur("79.90000"), net: eur("66.03306") },
          },
          discounts_applied: [{ type: "voucher", amount: eur("10.00"), description: "Voucher WELCOME10" }],
          additional_services: [
            {
              display_name: "Gift wrap",
              internal_id: "SRV-GIFT-WRAP",
              quantity: 1,
              unit_price: { gross: eur("2.50000"), net: eur("2.06612") },
              tax_rate: "21.00",
            },
          ],
          total: { gross: eur("152.30"), net: eur("125.87"), tax: eur("26.43") },
        },
      ],
    });
  });

  it("lists line items in their position order, and [] for an order without lines", async () => {
    const withLines = await createOrder({ lines: [{ position: 1 }, { position: 0 }, { position: 2 }] });
    const without = await createOrder();
    const res = await list([withLines.id, without.id], "fields=line_items&sort=id_asc");
    const [first, second] = res.json.data;
    expect(first.line_items.map((l: { id: number }) => l.id)).toEqual([
      withLines.lineIds[1],
      withLines.lineIds[0],
      withLines.lineIds[2],
    ]);
    expect(second.line_items).toEqual([]);
  });

  it("answers 404 not_found for an unknown id", async () => {
    const res = await api("/api/v1/orders/99999999");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });
});

describe("order customer include", () => {
  it("embeds the customer with exactly id, email, full_name, created_at and preferred_locale", async () => {
    const contactId = await createBuyer("Jordi", "Puig");
    const { id } = await createOrder({ contactId });
    const res = await api(`/api/v1/orders/${id}?includes=customer`);
    expect(res.status).toBe(200);
    expect(res.json.customer).toEqual({
      id: contactId,
      email: `buyer${contactId}@example.test`,
      full_name: "Jordi Puig",
      created_at: "2025-04-01T08:30:00Z",
      preferred_locale: "ca-ES",
    });
    expect(Object.keys(res.json)).toEqual([...DEFAULT_KEYS, "customer"]);
  });

  it("renders customer as null when the order has no contact", async () => {
    const { id } = await createOrder({ contactId: null });
    expect((await api(`/api/v1/orders/${id}?includes=customer`)).json.customer).toBeNull();
  });

  it("keeps the customer's own representation when fields limits the order", async () => {
    const contactId = await createBuyer(null, null);
    const { id } = await createOrder({ contactId });
    const res = await api(`/api/v1/orders/${id}?fields=email&includes=customer`);
    expect(res.json).toEqual({
      id,
      email: `order${id}@example.test`,
      customer: {
        id: contactId,
        email: `buyer${contactId}@example.test`,
        full_name: null,
        created_at: "2025-04-01T08:30:00Z",
        preferred_locale: "ca-ES",
      },
    });
  });

  it("refuses an include other than customer with 400 invalid_parameter", async () => {
    const res = await api("/api/v1/orders?includes=line_items");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("loads line items and customers of a page in a number of round trips that does not grow with the page", async () => {
    const contactId = await createBuyer("Round", "Trip");
    const small = [await createOrder({ contactId, lines: [{}] }), await createOrder({ lines: [{}, {}] })];
    const large = [...small];
    for (let i = 0; i < 6; i++)
      large.push(await createOrder({ contactId: i % 2 ? contactId : null, lines: [{}] }));
    const q = "fields=line_items&includes=customer&per_page=100";
    const a = await list(
      small.map((o) => o.id),
      q,
    );
    const b = await list(
      large.map((o) => o.id),
      q,
    );
    expect(b.json.data).toHaveLength(8);
    expect(b.json.data.filter((o: { customer: unknown }) => o.customer !== null)).toHaveLength(4);
    expect(roundTrips(b.headers)).toBe(roundTrips(a.headers));
    expect(roundTrips(b.headers)).toBe(1);
  });
});

describe("order filters", () => {
  it("matches order_ids", async () => {
    const a = await createOrder();
    const b = await createOrder();
    await createOrder();
    expect(ids(await list([a.id, b.id], "sort=id_asc"))).toEqual([a.id, b.id]);
  });

  it("filters created_at with inclusive bounds and date-only values", async () => {
    const early = await createOrder({ createdAt: "2025-09-01T00:00:00Z" });
    const late = await createOrder({ createdAt: "2025-09-02T23:59:59Z" });
    const all = [early.id, late.id];
    expect(ids(await list(all, "created_at_from=2025-09-01T00:00:00Z&sort=id_asc"))).toEqual(all);
    expect(ids(await list(all, "created_at_to=2025-09-01"))).toEqual([early.id]);
    expect(ids(await list(all, "created_at_from=2025-09-02&created_at_to=2025-09-02"))).toEqual([late.id]);
  });

  it("filters fulfilled_at with inclusive bounds, leaving out unfulfilled orders", async () => {
    const a = await createOrder({ fulfilledAt: "2025-10-01T12:00:00Z" });
    const b = await createOrder({ fulfilledAt: "2025-10-03T12:00:00Z" });
    const none = await createOrder({ fulfilledAt: null, fulfillment: "unfulfilled" });
    const all = [a.id, b.id, none.id];
    expect(ids(await list(all, "fulfilled_at_from=2025-10-01T12:00:00Z&sort=id_asc"))).toEqual([a.id, b.id]);
    expect(ids(await list(all, "fulfilled_at_to=2025-10-02"))).toEqual([a.id]);
  });

  it("filters paid_at with inclusive bounds, leaving out unpaid orders", async () => {
    const a = await createOrder({ paidAt: "2025-11-01T08:00:00Z" });
    const b = await createOrder({ paidAt: "2025-11-05T08:00:00Z" });
    const unpaid = await createOrder({ paidAt: null, paymentStatus: "unpaid" });
    const all = [a.id, b.id, unpaid.id];
    expect(ids(await list(all, "paid_at_from=2025-11-02"))).toEqual([b.id]);
    expect(ids(await list(all, "paid_at_to=2025-11-05T08:00:00Z&sort=id_asc"))).toEqual([a.id, b.id]);
    expect((await list(all, "paid_at_from=2025-11-05&paid_at_to=2025-11-01")).status).toBe(400);
  });

  it("matches delivery_method", async () => {
    const ship = await createOrder({ delivery: "shipment" });
    const pickup = await createOrder({ delivery: "store_pick_up" });
    const all = [ship.id, pickup.id];
    expect(ids(await list(all, "delivery_method=store_pick_up"))).toEqual([pickup.id]);
    expect(ids(await list(all, "delivery_method=shipment"))).toEqual([ship.id]);
    expect((await list(all, "delivery_method=courier")).status).toBe(400);
  });

  it("matches fulfillment_status", async () => {
    const full = await createOrder({ fulfillment: "fulfilled" });
    const part = await createOrder({ fulfillment: "partially_fulfilled" });
    const none = await createOrder({ fulfillment: "unfulfilled", fulfilledAt: null });
    const all = [full.id, part.id, none.id];
    expect(ids(await list(all, "fulfillment_status=fulfilled"))).toEqual([full.id]);
    expect(ids(await list(all, "fulfillment_status=partially_fulfilled"))).toEqual([part.id]);
    expect(ids(await list(all, "fulfillment_status=unfulfilled"))).toEqual([none.id]);
  });

  it("matches payment_status", async () => {
    const paid = await createOrder({ paymentStatus: "paid" });
    const unpaid = await createOrder({ paymentStatus: "unpaid", paidAt: null });
    const all = [paid.id, unpaid.id];
    expect(ids(await list(all, "payment_status=paid"))).toEqual([paid.id]);
    expect(ids(await list(all, "payment_status=unpaid"))).toEqual([unpaid.id]);
    expect((await list(all, "payment_status=paid,unpaid")).status).toBe(400);
  });

  it("matches warehouse_release_status", async () => {
    const released = await createOrder({ release: "released" });
    const partial = await createOrder({ release: "partially_released" });
    const not = await createOrder({ release: "not_released" });
    const all = [released.id, partial.id, not.id];
    expect(ids(await list(all, "warehouse_release_status=released"))).toEqual([released.id]);
    expect(ids(await list(all, "warehouse_release_status=partially_released"))).toEqual([partial.id]);
    expect(ids(await list(all, "warehouse_release_status=not_released"))).toEqual([not.id]);
  });

  it("is_canceled=true returns canceled orders and is_canceled=false the others", async () => {
    const canceled = await createOrder({ canceledAt: "2026-01-11T00:00:00Z" });
    const open = await createOrder();
    const all = [canceled.id, open.id];
    expect(ids(await list(all, "is_canceled=true"))).toEqual([canceled.id]);
    expect(ids(await list(all, "is_canceled=false"))).toEqual([open.id]);
    expect((await list(all, "is_canceled=yes")).status).toBe(400);
  });
});

describe("order sorts", () => {
  it("sorts newest first by default (created_at_desc), ties by id descending", async () => {
    const old = await createOrder({ createdAt: "2025-12-01T00:00:00Z" });
    const newer = await createOrder({ createdAt: "2025-12-02T00:00:00Z" });
    const tie = await createOrder({ createdAt: "2025-12-02T00:00:00Z" });
    const all = [old.id, newer.id, tie.id];
    expect(ids(await list(all))).toEqual([tie.id, newer.id, old.id]);
    expect(ids(await list(all, "sort=created_at_desc"))).toEqual([tie.id, newer.id, old.id]);
  });

  it("sorts by created_at_asc, ties by id ascending", async () => {
    const newer = await createOrder({ createdAt: "2025-12-05T00:00:00Z" });
    const old = await createOrder({ createdAt: "2025-12-04T00:00:00Z" });
    const tie = await createOrder({ createdAt: "2025-12-04T00:00:00Z" });
    expect(ids(await list([newer.id, old.id, tie.id], "sort=created_at_asc"))).toEqual([
      old.id,
      tie.id,
      newer.id,
    ]);
  });

  it("sorts by id both ways", async () => {
    const a = await createOrder({ createdAt: "2025-12-07T00:00:00Z" });
    const b = await createOrder({ createdAt: "2025-12-06T00:00:00Z" });
    expect(ids(await list([a.id, b.id], "sort=id_asc"))).toEqual([a.id, b.id]);
    expect(ids(await list([a.id, b.id], "sort=id_desc"))).toEqual([b.id, a.id]);
  });

  it("refuses a sort orders do not have", async () => {
    const res = await api("/api/v1/orders?sort=total_asc");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });
});

describe("order parameters", () => {
  it("refuses locales and other unknown parameters with unknown_parameter", async () => {
    const { id } = await createOrder();
    for (const path of [
      "/api/v1/orders?locales=es-ES",
      "/api/v1/orders?view=customers",
      `/api/v1/orders/${id}?locales=es-ES`,
    ]) {
      const res = await api(path);
      expect(res.status, path).toBe(400);
      expect(res.json.code, path).toBe("unknown_parameter");
    }
  });

  it("refuses an unknown field name with 400 invalid_parameter", async () => {
    const res = await api("/api/v1/orders?fields=customer");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });
});

describe("demo seed of contacts and orders", () => {
  it("loads orders whose amounts add up and contacts whose orders_count matches", async () => {
    const statements = [...contactStatements(1), ...orderStatements(1)];
    expect(statements.every((s) => s.params.length < 100)).toBe(true);
    expect(orderStatements(1)).toEqual(orderStatements(1));
    await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));

    const cents = (column: string) => `CAST(round(${column} * 100) AS INTEGER)`;
    const one = async <T>(sql: string) => (await env.DB.prepare(sql).first<T>()) as T;
    expect(await one(`SELECT count(*) AS n FROM contacts WHERE id <= ${contactCount(1)}`)).toEqual({
      n: contactCount(1),
    });
    expect(await one(`SELECT count(*) AS n FROM orders WHERE id <= ${orderCount(1)}`)).toEqual({
      n: orderCount(1),
    });
    const broken = await one<{ lines: number; orders: number; sums: number; counts: number }>(`SELECT
      (SELECT count(*) FROM order_line_items WHERE order_id <= 100000
         AND ${cents("total_net")} + ${cents("total_tax")} != ${cents("total_gross")}) AS lines,
      (SELECT count(*) FROM orders WHERE id <= 100000 AND (
         ${cents("total_net")} + ${cents("total_tax")} != ${cents("total_gross")}
         OR ${cents("shipping_net")} + ${cents("shipping_tax")} != ${cents("shipping_gross")}
         OR ${cents("fees_net")} + ${cents("fees_tax")} != ${cents("fees_gross")})) AS orders,
      (SELECT count(*) FROM orders o WHERE o.id <= 100000 AND ${cents("o.total_gross")} !=
         ${cents("o.shipping_gross")} + ${cents("o.fees_gross")} +
         (SELECT sum(${cents("l.total_gross")}) FROM order_line_items l WHERE l.order_id = o.id)) AS sums,
      (SELECT count(*) FROM contacts c WHERE c.id <= 100000 AND c.orders_count !=
         (SELECT count(*) FROM orders o WHERE o.contact_id = c.id)) AS counts`);
    expect(broken).toEqual({ lines: 0, orders: 0, sums: 0, counts: 0 });

    const covered = await one<Record<string, string>>(`SELECT
      (SELECT group_concat(DISTINCT payment_status) FROM (SELECT payment_status FROM orders WHERE id <= 100000 ORDER BY 1)) AS payment,
      (SELECT group_concat(DISTINCT fulfillment_status) FROM (SELECT fulfillment_status FROM orders WHERE id <= 100000 ORDER BY 1)) AS fulfillment,
      (SELECT group_concat(DISTINCT warehouse_release_status) FROM (SELECT warehouse_release_status FROM orders WHERE id <= 100000 ORDER BY 1)) AS releases,
      (SELECT group_concat(DISTINCT delivery_method) FROM (SELECT delivery_method FROM orders WHERE id <= 100000 ORDER BY 1)) AS delivery,
      (SELECT group_concat(DISTINCT mkt_state) FROM (SELECT mkt_state FROM contacts WHERE id <= 100000 ORDER BY 1)) AS mkt`);
    expect(covered).toEqual({
      payment: "paid,unpaid",
      fulfillment: "fulfilled,partially_fulfilled,unfulfilled",
      releases: "not_released,partially_released,released",
      delivery: "shipment,store_pick_up",
      mkt: "not_subscribed,subscribed,unsubscribed",
    });
    const extras = await one<Record<string, number>>(`SELECT
      (SELECT count(*) FROM orders WHERE id <= 100000 AND canceled_at IS NOT NULL) AS canceled,
      (SELECT count(*) FROM orders WHERE id <= 100000 AND contact_id IS NULL) AS guests,
      (SELECT count(*) FROM order_line_items WHERE order_id <= 100000 AND discounts_applied != '[]') AS vouchers,
      (SELECT count(*) FROM order_line_items WHERE order_id <= 100000 AND additional_services != '[]') AS services,
      (SELECT count(*) FROM contacts WHERE id <= 100000 AND is_customer = 0 AND mkt_state = 'not_subscribed') AS nobody`);
    expect(extras.canceled).toBeGreaterThan(0);
    expect(extras.guests).toBeGreaterThan(0);
    expect(extras.vouchers).toBeGreaterThan(0);
    expect(extras.services).toBeGreaterThan(0);
    expect(extras.nobody).toBe(0);

    const res = await api("/api/v1/orders?fields=line_items&includes=customer&per_page=100&order_ids=1,2,3");
    expect(res.status).toBe(200);
    for (const order of res.json.data) {
      for (const line of order.line_items)
        expect(line.unit_price.final_price.net.amount).toMatch(/^\d+\.\d{5}$/);
    }
  });
});
