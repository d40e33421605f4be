import type {
  DELIVERY_METHODS,
  FULFILLMENT_STATUSES,
  PAYMENT_STATUSES,
  WAREHOUSE_RELEASE_STATUSES,
} from "../db/schema/enums.ts";
import type { Locale } from "../lib/locales.ts";
import { seedTime } from "./clock.ts";
import { contactOfOrder, seedContacts } from "./contacts.ts";
import { orderCount, productCount, variantIdsOfProduct } from "./layout.ts";
import { type Rng, rngFor } from "./rng.ts";
import { insertRows, json, type Row, type SeedStatement } from "./sql.ts";

/**
 * Orders are snapshots: every amount is computed here in integer cents (unit prices in 1e-5 EUR),
 * so each line, the shipping and the fees satisfy net + tax = gross exactly, and the order total is
 * their sum. Shop currency EUR.
 */
const CURRENCY = "EUR";
const DAY = 24 * 60;

type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
type Release = (typeof WAREHOUSE_RELEASE_STATUSES)[number];
type Fulfillment = (typeof FULFILLMENT_STATUSES)[number];
type Delivery = (typeof DELIVERY_METHODS)[number];

interface Amounts {
  gross: number;
  net: number;
  tax: number;
}

/** Cents → "12.34"; 1e-5 units → "12.34000". */
const cents = (n: number) => `${Math.trunc(n / 100)}.${String(Math.abs(n) % 100).padStart(2, "0")}`;
const micro = (n: number) => `${Math.trunc(n / 100_000)}.${String(Math.abs(n) % 100_000).padStart(5, "0")}`;
const eur = (amount: string) => ({ amount, currency: CURRENCY });

/** The net part of a gross amount at a tax rate in basis points (2100 = 21.00 %). */
const netOf = (gross: number, rateBp: number) => Math.round((gross * 10_000) / (10_000 + rateBp));
const split = (gross: number, rateBp: number): Amounts => {
  const net = netOf(gross, rateBp);
  return { gross, net, tax: gross - net };
};
const add = (a: Amounts, b: Amounts): Amounts => ({
  gross: a.gross + b.gross,
  net: a.net + b.net,
  tax: a.tax + b.tax,
});
const ZERO: Amounts = { gross: 0, net: 0, tax: 0 };
const rateText = (bp: number) => cents(bp);

const PRODUCT_TYPES = [
  "Camiseta técnica",
  "Chaqueta impermeable",
  "Zapatillas de trail",
  "Mochila 25 L",
  "Sartén antiadherente",
  "Juego de sábanas",
  "Gafas de sol polarizadas",
  "Cartera de piel",
  "Bañador",
  "Casco de ciclismo",
  "Sudadera con capucha",
  "Cafetera italiana",
];
const MATERIALS = ["Algodón", "Merino", "Reciclado", "Pro", "Classic", "Lite", "Urban", "Alpine"];
const OPTIONS = ["S", "M", "L", "XL", "Negro", "Azul", "Rojo", "Verde"];

/** Snapshot text of a variant as it was sold (the catalog may have changed since). */
function variantSnapshot(productId: number, variantId: number, position: number) {
  const name = `${PRODUCT_TYPES[productId % PRODUCT_TYPES.length]} ${MATERIALS[(productId * 7) % MATERIALS.length]}`;
  const single = variantIdsOfProduct(productId).length === 1;
  const option = OPTIONS[(productId + position * 3) % OPTIONS.length];
  const body = `843${String(variantId).padStart(9, "0")}`;
  const check = (10 - ([...body].reduce((sum, d, i) => sum + Number(d) * (i % 2 ? 3 : 1), 0) % 10)) % 10;
  return {
    sku: `SF-${String(productId).padStart(4, "0")}-${position + 1}`,
    ean: `${body}${check}`,
    displayName: single ? name : `${name} - ${option}`,
  };
}

/** Reduced VAT (10 %) for every sixth product, standard 21 % otherwise. */
const taxRateOf = (productId: number) => (productId % 6 === 0 ? 1000 : 2100);
/** A list price ending in .90 or .95, 9.90 to 149.95, fixed per product. */
const listPriceOf = (productId: number) => 900 + ((productId * 37) % 141) * 100 + (productId % 2 ? 90 : 95);

const SERVICES = [
  { display_name: "Gift wrap", internal_id: "SRV-GIFT-WRAP", gross: 250, rateBp: 2100 },
  { display_name: "Extended warranty (2 years)", internal_id: "SRV-WARRANTY-2Y", gross: 990, rateBp: 2100 },
  { display_name: "Personalised engraving", internal_id: null, gross: 500, rateBp: 2100 },
];
const VOUCHERS: { code: string; percent?: number; fixed?: number }[] = [
  { code: "WELCOME10", percent: 10 },
  { code: "SPRING15", percent: 15 },
  { code: "FIXED5", fixed: 500 },
];

interface SeedLine {
  row: Row;
  total: Amounts;
}

function lineItem(
  rng: Rng,
  scale: number,
  id: number,
  orderId: number,
  position: number,
  voucher: boolean,
): SeedLine {
  const productId = rng.int(1, productCount(scale));
  const variants = variantIdsOfProduct(productId);
  const variantPosition = rng.int(0, variants.length - 1);
  const variantId = variants[variantPosition] as number;
  const snapshot = variantSnapshot(productId, variantId, variantPosition);
  const rateBp = taxRateOf(productId);
  const quantity = rng.chance(0.7) ? 1 : rng.int(2, 3);
  const list = listPriceOf(productId);
  // A third of the lines were sold at an offer price (10–30 % off, whole cents).
  const final = rng.chance(0.33) ? Math.round((list * (100 - 5 * rng.int(2, 6))) / 100) : list;
  const goods = final * quantity;

  const discounts: unknown[] = [];
  let discount = 0;
  if (voucher) {
    const v = rng.pick(VOUCHERS);
    discount = Math.min(goods - 1, v.fixed ?? Math.round((goods * (v.percent ?? 0)) / 100));
    discounts.push({ type: "voucher", amount: eur(cents(discount)), description: `Voucher ${v.code}` });
  }
  const services: unknown[] = [];
  let total = split(goods - discount, rateBp);
  if (rng.chance(0.15)) {
    const s = rng.pick(SERVICES);
    const qty = s.internal_id === "SRV-GIFT-WRAP" ? quantity : 1;
    services.push({
      display_name: s.display_name,
      internal_id: s.internal_id,
      quantity: qty,
      unit_price: { gross: eur(micro(s.gross * 1000)), net: eur(micro(netOf(s.gross * 1000, s.rateBp))) },
      tax_rate: rateText(s.rateBp),
    });
    total = add(total, split(s.gross * qty, s.rateBp));
  }
  return {
    total,
    row: {
      id,
      order_id: orderId,
      position,
      product_id: productId,
      variant_id: variantId,
      sku: snapshot.sku,
      ean: snapshot.ean,
      display_name: snapshot.displayName,
      tax_rate: rateText(rateBp),
      quantity,
      list_price_gross: micro(list * 1000),
      final_price_gross: micro(final * 1000),
      final_price_net: micro(netOf(final * 1000, rateBp)),
      total_gross: cents(total.gross),
      total_net: cents(total.net),
      total_tax: cents(total.tax),
      discounts_applied: json(discounts),
      additional_services: json(services),
    },
  };
}

interface Status {
  payment: PaymentStatus;
  release: Release;
  fulfillment: Fulfillment;
  delivery: Delivery;
  canceled: boolean;
  method?: string;
}

/** The first orders cover every status, delivery method and cancellation, whatever the scale. */
const COVERAGE: Status[] = [
  { payment: "paid", release: "released", fulfillment: "fulfilled", delivery: "shipment", canceled: false },
  {
    payment: "unpaid",
    release: "not_released",
    fulfillment: "unfulfilled",
    delivery: "shipment",
    canceled: false,
  },
  {
    payment: "paid",
    release: "partially_released",
    fulfillment: "partially_fulfilled",
    delivery: "shipment",
    canceled: false,
  },
  {
    payment: "paid",
    release: "released",
    fulfillment: "fulfilled",
    delivery: "store_pick_up",
    canceled: false,
  },
  {
    payment: "unpaid",
    release: "not_released",
    fulfillment: "unfulfilled",
    delivery: "shipment",
    canceled: true,
  },
  {
    payment: "paid",
    release: "released",
    fulfillment: "partially_fulfilled",
    delivery: "shipment",
    canceled: false,
  },
  {
    payment: "paid",
    release: "not_released",
    fulfillment: "unfulfilled",
    delivery: "store_pick_up",
    canceled: false,
  },
  {
    payment: "paid",
    release: "partially_released",
    fulfillment: "unfulfilled",
    delivery: "shipment",
    canceled: false,
  },
  {
    payment: "unpaid",
    release: "released",
    fulfillment: "fulfilled",
    delivery: "shipment",
    canceled: false,
    method: "cash_on_delivery",
  },
  {
    payment: "paid",
    release: "not_released",
    fulfillment: "unfulfilled",
    delivery: "shipment",
    canceled: true,
  },
];

function randomStatus(rng: Rng): Status {
  const delivery: Delivery = rng.chance(0.2) ? "store_pick_up" : "shipment";
  if (rng.chance(0.08)) {
    return {
      payment: rng.chance(0.6) ? "unpaid" : "paid",
      release: "not_released",
      fulfillment: "unfulfilled",
      delivery,
      canceled: true,
    };
  }
  if (rng.chance(0.18))
    return {
      payment: "unpaid",
      release: "not_released",
      fulfillment: "unfulfilled",
      delivery,
      canceled: false,
    };
  const r = rng.next();
  const release: Release = r < 0.65 ? "released" : r < 0.8 ? "partially_released" : "not_released";
  const fulfillment: Fulfillment =
    release === "released"
      ? rng.chance(0.8)
        ? "fulfilled"
        : "partially_fulfilled"
      : release === "partially_released"
        ? rng.chance(0.5)
          ? "partially_fulfilled"
          : "unfulfilled"
        : "unfulfilled";
  return { payment: "paid", release, fulfillment, delivery, canceled: false };
}

const PAYMENTS: { method: string; gateway: string | null; weight: number }[] = [
  { method: "card", gateway: "stripe", weight: 50 },
  { method: "paypal", gateway: "paypal", weight: 20 },
  { method: "bizum", gateway: "redsys", weight: 12 },
  { method: "bank_transfer", gateway: null, weight: 10 },
  { method: "cash_on_delivery", gateway: null, weight: 8 },
];

function pickPayment(rng: Rng, status: Status) {
  if (status.method)
    return PAYMENTS.find((p) => p.method === status.method) ?? (PAYMENTS[0] as (typeof PAYMENTS)[number]);
  const options = PAYMENTS.filter((p) => p.method !== "cash_on_delivery" || status.delivery === "shipment");
  let r = rng.int(
    1,
    options.reduce((n, p) => n + p.weight, 0),
  );
  for (const p of options) {
    r -= p.weight;
    if (r <= 0) return p;
  }
  return PAYMENTS[0] as (typeof PAYMENTS)[number];
}

const GUEST_LOCALES: Locale[] = [
  "es-ES",
  "es-ES",
  "es-ES",
  "ca-ES",
  "en-GB",
  "fr-FR",
  "de-DE",
  "it-IT",
  "pt-PT",
];
const SHIPPING_GROSS = 495;
const FREE_SHIPPING_FROM = 5000;
const COD_FEE_GROSS = 300;

/**
 * `orderCount(scale)` orders (ids 1..n) over the seeded contacts (some guest checkouts), created
 * in the year before the seed epoch: paid and unpaid, shipped and picked up, every release and
 * fulfillment status, some canceled; 1–4 lines each over the seeded products and their variants,
 * some with voucher discounts and additional services. Contacts must be seeded first.
 */
export function orderStatements(scale: number): SeedStatement[] {
  const rng = rngFor("orders");
  const contacts = seedContacts(scale);
  const orders: Row[] = [];
  const lines: Row[] = [];
  let lineId = 0;
  const count = orderCount(scale);
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const contactId = contactOfOrder(scale, id);
    const contact = contactId === null ? undefined : contacts[contactId - 1];
    const status = COVERAGE[i] ?? randomStatus(rng);
    const payment = pickPayment(rng, status);

    // Spread over the year before the epoch, never before the customer registered.
    let created = Math.round(-365 * DAY + (i / count) * 362 * DAY + rng.int(-2 * DAY, 2 * DAY));
    if (contact) created = Math.max(created, contact.createdMinutes + DAY);
    created = Math.min(created, -DAY);

    const voucherLine = rng.chance(0.2) ? 0 : -1;
    let items = ZERO;
    const lineCount = rng.int(1, 4);
    for (let position = 0; position < lineCount; position++) {
      const line = lineItem(rng, scale, ++lineId, id, position, position === voucherLine);
      lines.push(line.row);
      items = add(items, line.total);
    }
    const shipping =
      status.delivery === "shipment" && items.gross < FREE_SHIPPING_FROM ? split(SHIPPING_GROSS, 2100) : ZERO;
    const fees = payment.method === "cash_on_delivery" ? split(COD_FEE_GROSS, 2100) : ZERO;
    const total = add(add(items, shipping), fees);

    const paidAt = status.payment === "paid" ? created + rng.int(1, 30) : null;
    const fulfilledAt =
      status.fulfillment === "fulfilled" ? (paidAt ?? created) + rng.int(DAY, 5 * DAY) : null;
    const canceledAt = status.canceled ? created + rng.int(60, 3 * DAY) : null;
    orders.push({
      id,
      contact_id: contactId,
      email: contact?.email ?? `guest${String(id).padStart(6, "0")}@example.net`,
      locale: contact?.preferredLocale ?? rng.pick(GUEST_LOCALES),
      payment_status: status.payment,
      warehouse_release_status: status.release,
      fulfillment_status: status.fulfillment,
      delivery_method: status.delivery,
      payment_method: payment.method,
      payment_gateway: payment.gateway,
      currency: CURRENCY,
      total_gross: cents(total.gross),
      total_net: cents(total.net),
      total_tax: cents(total.tax),
      shipping_gross: cents(shipping.gross),
      shipping_net: cents(shipping.net),
      shipping_tax: cents(shipping.tax),
      fees_gross: cents(fees.gross),
      fees_net: cents(fees.net),
      fees_tax: cents(fees.tax),
      paid_at: paidAt === null ? null : seedTime(paidAt),
      fulfilled_at: fulfilledAt === null ? null : seedTime(fulfilledAt),
      canceled_at: canceledAt === null ? null : seedTime(canceledAt),
      created_at: seedTime(created),
    });
  }
  return [...insertRows("orders", orders), ...insertRows("order_line_items", lines)];
}
