import { z } from "@hono/zod-openapi";
import { MoneySchema } from "../../conventions/money-schema.ts";
import { PUBLICATION_STATUSES } from "../../db/schema/index.ts";
import { positiveIdPathParam } from "../../http/route.ts";

const MarketPriceSchema = z
  .object({
    selling_price: MoneySchema.nullable(),
    list_price: MoneySchema.nullable().optional(),
    offer_price: MoneySchema.nullable().optional(),
    flash_offer: z
      .object({ price: MoneySchema, valid_from: z.string().date(), valid_until: z.string().date() })
      .nullable()
      .optional(),
  })
  .openapi("MarketPrice", {
    description:
      "`selling_price` is the flash offer within its window (UTC dates, inclusive), else the offer price, else the list price.",
  });

export const VariantSchema = z
  .object({
    id: z.number().int(),
    internal_id: z.string().nullable().optional(),
    sku: z.string().nullable().optional(),
    ean: z.string().nullable().optional(),
    status: z.enum(PUBLICATION_STATUSES).optional(),
    available_stock: z.number().int().optional().openapi({
      description:
        "Units a customer can order: `warehouse_stock` + `supplier_stock`, or `warehouse_stock` alone when the product's `stock_management` is `deny-without-own-stock`; never below 0. Computed when read: writes set `warehouse_stock` and `supplier_stock`.",
    }),
    min_quantity: z.number().int().optional(),
    quantity_factor: z.number().int().optional(),
    supplier_stock: z.number().int().optional().openapi({
      description:
        "Units the supplier holds for the store, as last written by a bulk job. Part of `available_stock`.",
    }),
    warehouse_stock: z.number().int().optional().openapi({
      description:
        "Units in the store's own warehouse, as last written by a bulk job. Part of `available_stock`.",
    }),
    cost_price: MoneySchema.nullable().optional(),
    prices: z
      .record(z.string(), MarketPriceSchema.nullable())
      .optional()
      .openapi({ description: "Keyed by market key (one entry per market of the requested locales)." }),
    translations: z.record(z.string(), z.object({ name: z.string().nullable() })).optional(),
  })
  .openapi("Variant", {
    example: {
      id: 10,
      internal_id: "V-10",
      sku: "TSHIRT-RED-M",
      ean: "8412345678905",
      status: "published",
      available_stock: 12,
      prices: { market_es: { selling_price: { amount: "19.90", currency: "EUR" } } },
      translations: { "es-ES": { name: "Rojo M" } },
    },
  });

/** The product in `/products/{product_id}/variants`. */
export const productIdParam = z.object({ product_id: positiveIdPathParam("product_id") });
