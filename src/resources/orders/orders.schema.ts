import { z } from "@hono/zod-openapi";
import { MoneySchema } from "../../conventions/money-schema.ts";
import {
  DELIVERY_METHODS,
  FULFILLMENT_STATUSES,
  PAYMENT_STATUSES,
  WAREHOUSE_RELEASE_STATUSES,
} from "../../db/schema/index.ts";

const eur = (amount: string) => ({ amount, currency: "EUR" });

const OrderAmountsSchema = z
  .object({ gross: MoneySchema, net: MoneySchema, tax: MoneySchema })
  .openapi("OrderAmounts", {
    description: "Amounts in the shop currency with 2 decimals; `net` + `tax` = `gross`.",
    example: { gross: eur("24.20"), net: eur("20.00"), tax: eur("4.20") },
  });

const taxRate = z.string().openapi({ description: "Percentage as a decimal string.", example: "21.00" });

const OrderLineItemSchema = z
  .object({
    id: z.number().int(),
    product_id: z.number().int().nullable(),
    variant_id: z.number().int().nullable(),
    sku: z.string().nullable(),
    ean: z.string().nullable(),
    display_name: z.string(),
    tax_rate: taxRate,
    quantity: z.number().int(),
    unit_price: z
      .object({
        list_price: z.object({ gross: MoneySchema }),
        final_price: z.object({ gross: MoneySchema, net: MoneySchema }),
      })
      .openapi({ description: "Unit amounts with 5 decimals." }),
    discounts_applied: z.array(
      z.object({
        type: z.string().openapi({ description: "For example `voucher`.", example: "voucher" }),
        amount: MoneySchema,
        description: z.string().nullable(),
      }),
    ),
    additional_services: z.array(
      z.object({
        display_name: z.string(),
        internal_id: z.string().nullable(),
        quantity: z.number().int(),
        unit_price: z
          .object({ gross: MoneySchema, net: MoneySchema })
          .openapi({ description: "Unit amounts with 5 decimals." }),
        tax_rate: taxRate,
      }),
    ),
    total: OrderAmountsSchema,
  })
  .openapi("OrderLineItem", {
    description: "One line as sold (a snapshot: later catalog or price changes do not alter it).",
    example: {
      id: 311,
      product_id: 12,
      variant_id: 46,
      sku: "SF-0012-2",
      ean: "8437000000461",
      display_name: "Chaqueta impermeable Trail - M",
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
  });

const OrderCustomerSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    full_name: z.string().nullable(),
    created_at: z.string(),
    preferred_locale: z.string().nullable(),
  })
  .openapi("OrderCustomer", {
    description: "The contact who placed the order, with exactly these fields.",
    example: {
      id: 7,
      email: "lucia.martin@example.com",
      full_name: "Lucía Martín",
      created_at: "2025-03-12T09:41:00Z",
      preferred_locale: "es-ES",
    },
  });

export const OrderSchema = z
  .object({
    id: z.number().int().openapi({ description: "Fixed field." }),
    created_at: z.string().optional(),
    payment_status: z.enum(PAYMENT_STATUSES).optional(),
    warehouse_release_status: z.enum(WAREHOUSE_RELEASE_STATUSES).optional(),
    fulfillment_status: z.enum(FULFILLMENT_STATUSES).optional(),
    delivery_method: z.enum(DELIVERY_METHODS).optional(),
    locale: z.string().optional(),
    payment_method: z.string().nullable().optional(),
    payment_gateway: z.string().nullable().optional(),
    paid_at: z.string().nullable().optional(),
    fulfilled_at: z.string().nullable().optional(),
    canceled_at: z.string().nullable().optional(),
    total: OrderAmountsSchema.optional(),
    shipping: OrderAmountsSchema.optional(),
    fees: OrderAmountsSchema.optional().openapi({ description: "Zeros when the order has no fees." }),
    email: z.string().optional(),
    line_items: z
      .array(OrderLineItemSchema)
      .optional()
      .openapi({ description: "Not a default field: request it with `fields=line_items`." }),
    customer: OrderCustomerSchema.nullable()
      .optional()
      .openapi({ description: "With `includes=customer`; null when the order has no contact." }),
  })
  .openapi("Order", {
    description:
      "A purchase attempt, created when the customer reaches the payment step: a transactional snapshot in the shop currency.",
    example: {
      id: 1042,
      created_at: "2026-01-03T17:05:12Z",
      payment_status: "paid",
      warehouse_release_status: "released",
      fulfillment_status: "fulfilled",
      delivery_method: "shipment",
      locale: "es-ES",
      payment_method: "card",
      payment_gateway: "stripe",
      paid_at: "2026-01-03T17:06:40Z",
      fulfilled_at: "2026-01-05T10:12:00Z",
      canceled_at: null,
      total: { gross: eur("157.25"), net: eur("129.96"), tax: eur("27.29") },
      shipping: { gross: eur("4.95"), net: eur("4.09"), tax: eur("0.86") },
      fees: { gross: eur("0.00"), net: eur("0.00"), tax: eur("0.00") },
      email: "lucia.martin@example.com",
    },
  });
