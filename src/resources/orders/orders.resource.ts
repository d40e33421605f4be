import { isNotNull, isNull } from "drizzle-orm";
import { childRowsLoader } from "../../conventions/child-rows.ts";
import { column } from "../../conventions/column-field.ts";
import { dateRangeFilters, enumFilter, filter, idsFilter } from "../../conventions/filters.ts";
import { belongsTo } from "../../conventions/includes.ts";
import { defineResource } from "../../conventions/resource.ts";
import {
  DELIVERY_METHODS,
  FULFILLMENT_STATUSES,
  orderLineItems,
  orders,
  PAYMENT_STATUSES,
  WAREHOUSE_RELEASE_STATUSES,
} from "../../db/schema/index.ts";
import { boolParam } from "../../http/params.ts";
import { type Money, storedMoney, toScale } from "../../lib/money.ts";
import { contactResource } from "../contacts/contacts.resource.ts";
import { OrderSchema } from "./orders.schema.ts";

type OrderRow = typeof orders.$inferSelect;
type LineItemRow = typeof orderLineItems.$inferSelect;

/** The fields (besides `id`) of the contact an order's `customer` include shows. */
const ORDER_CUSTOMER_FIELDS = ["email", "full_name", "created_at", "preferred_locale"];

/** Order-line unit prices have 5 decimals; every other amount 2. */
const UNIT_SCALE = 5;

const amounts = (gross: string, net: string, tax: string, currency: string) => ({
  gross: storedMoney(gross, currency),
  net: storedMoney(net, currency),
  tax: storedMoney(tax, currency),
});

const rescale = (m: Money, scale: number) => storedMoney(m.amount, m.currency, scale);

/** One order line as sold: a snapshot, never re-read from the catalog. */
function lineItem(item: LineItemRow, currency: string) {
  return {
    id: item.id,
    product_id: item.productId,
    variant_id: item.variantId,
    sku: item.sku,
    ean: item.ean,
    display_name: item.displayName,
    tax_rate: toScale(item.taxRate, 2),
    quantity: item.quantity,
    unit_price: {
      list_price: { gross: storedMoney(item.listPriceGross, currency, UNIT_SCALE) },
      final_price: {
        gross: storedMoney(item.finalPriceGross, currency, UNIT_SCALE),
        net: storedMoney(item.finalPriceNet, currency, UNIT_SCALE),
      },
    },
    discounts_applied: item.discountsApplied.map((d) => ({
      type: d.type,
      amount: rescale(d.amount, 2),
      description: d.description,
    })),
    additional_services: item.additionalServices.map((s) => ({
      display_name: s.display_name,
      internal_id: s.internal_id,
      quantity: s.quantity,
      unit_price: {
        gross: rescale(s.unit_price.gross, UNIT_SCALE),
        net: rescale(s.unit_price.net, UNIT_SCALE),
      },
      tax_rate: toScale(s.tax_rate, 2),
    })),
    total: amounts(item.totalGross, item.totalNet, item.totalTax, currency),
  };
}

const orderLoaders = {
  lineItems: childRowsLoader(
    orderLineItems,
    orderLineItems.orderId,
    [orderLineItems.orderId, orderLineItems.position, orderLineItems.id],
    (item) => item,
  ),
};

/** Orders are read-only snapshots; amounts are in the shop currency (EUR). */
export const orderResource = defineResource<{
  row: OrderRow;
  item: typeof OrderSchema;
  includes: "customer";
  loaders: typeof orderLoaders;
}>({
  name: "orders",
  label: "Order",
  path: "/orders",
  tag: "Orders",
  plural: "Orders",
  item: OrderSchema,
  description:
    "Newest first by default. `fields=line_items` adds the lines as sold (unit prices with 5 decimals); `includes=customer` embeds the contact (`id`, `email`, `full_name`, `created_at`, `preferred_locale`), null for orders without one.",
  table: orders,
  idColumn: orders.id,
  localized: false,
  fields: {
    id: column(orders.id, "fixed"),
    created_at: column(orders.createdAt, "default"),
    payment_status: column(orders.paymentStatus, "default"),
    warehouse_release_status: column(orders.warehouseReleaseStatus, "default"),
    fulfillment_status: column(orders.fulfillmentStatus, "default"),
    delivery_method: column(orders.deliveryMethod, "default"),
    locale: column(orders.locale, "default"),
    payment_method: column(orders.paymentMethod, "default"),
    payment_gateway: column(orders.paymentGateway, "default"),
    paid_at: column(orders.paidAt, "default"),
    fulfilled_at: column(orders.fulfilledAt, "default"),
    canceled_at: column(orders.canceledAt, "default"),
    total: { kind: "default", render: (r) => amounts(r.totalGross, r.totalNet, r.totalTax, r.currency) },
    shipping: {
      kind: "default",
      render: (r) => amounts(r.shippingGross, r.shippingNet, r.shippingTax, r.currency),
    },
    fees: { kind: "default", render: (r) => amounts(r.feesGross, r.feesNet, r.feesTax, r.currency) },
    email: column(orders.email, "default"),
    line_items: {
      needs: ["lineItems"],
      render: (r, related) => (related.lineItems?.get(r.id) ?? []).map((item) => lineItem(item, r.currency)),
    },
  },
  loaders: orderLoaders,
  includes: {
    customer: {
      ...belongsTo<OrderRow>(() => contactResource, {
        fk: orders.contactId,
        parentId: orders.id,
        parentTable: orders,
      }),
      fields: ORDER_CUSTOMER_FIELDS,
    },
  },
  filters: {
    ...dateRangeFilters("created_at", orders.createdAt, "Created"),
    ...dateRangeFilters("fulfilled_at", orders.fulfilledAt, "Fulfilled"),
    ...dateRangeFilters("paid_at", orders.paidAt, "Paid"),
    delivery_method: enumFilter(orders.deliveryMethod, DELIVERY_METHODS, "Delivery method."),
    fulfillment_status: enumFilter(orders.fulfillmentStatus, FULFILLMENT_STATUSES, "Fulfillment status."),
    payment_status: enumFilter(orders.paymentStatus, PAYMENT_STATUSES, "Payment status."),
    warehouse_release_status: enumFilter(
      orders.warehouseReleaseStatus,
      WAREHOUSE_RELEASE_STATUSES,
      "Warehouse release status.",
    ),
    is_canceled: filter(
      boolParam("`true`: canceled orders (`canceled_at` set); `false`: the others."),
      (v) => (v ? isNotNull(orders.canceledAt) : isNull(orders.canceledAt)),
    ),
    order_ids: idsFilter(orders.id, "Order ids."),
  },
  sorts: { created_at: { column: orders.createdAt }, id: { column: orders.id } },
  defaultSort: "created_at_desc",
});
