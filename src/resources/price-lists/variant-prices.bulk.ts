import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { BulkOperation } from "../../async/bulk/operation.ts";
import { batch } from "../../db/client.ts";
import { priceLists, priceListVariantPrices, suppliers, variants } from "../../db/schema/index.ts";
import { notFound } from "../../http/problem.ts";
import { PRICE_MATCH_BY, PriceListPriceRecord, priceListPrices } from "./variant-prices.bulk-processor.ts";
import { variantPriceResource } from "./variant-prices.resource.ts";

export const variantPricesBulk = {
  type: "price_list_variant_prices_bulk_update",
  routes: [
    {
      path: "/api/v1/price-lists/{id}/variant-prices/bulk",
      operationId: "bulkUpdatePriceListVariantPrices",
      tag: "Price lists",
    },
  ],
  summary: "Bulk update fixed variant prices of a price list (asynchronous)",
  description:
    "`upsert` creates new prices and updates existing ones (prices absent from the payload stay); `delete` removes the listed prices. Job type `price_list_variant_prices_bulk_update`.",
  itemsKey: "prices",
  options: z.object({ match_by: z.enum(PRICE_MATCH_BY), mode: z.enum(["upsert", "delete"]) }),
  record: PriceListPriceRecord,
  // Matched through the variant's identifiers; the price and quantities are written under other names.
  writes: {
    resource: variantPriceResource,
    relations: {
      variant_internal_id: variants,
      ean: variants,
      sku: variants,
      supplier_internal_id: suppliers,
      price: priceListVariantPrices,
      minimum_quantity: priceListVariantPrices,
      quantity_multiple: priceListVariantPrices,
    },
  },
  // Fixed prices of demo variants in a price list (PL-WHOLESALE in the demo data).
  bodyExample: {
    prices: [
      { variant_internal_id: "VAR-0000026", price: { amount: "91.97", currency_code: "EUR" } },
      {
        variant_internal_id: "VAR-0000034",
        price: { amount: "173.19", currency_code: "EUR" },
        minimum_quantity: 2,
        quantity_multiple: 2,
      },
    ],
    options: { match_by: "variant_internal_id", mode: "upsert" },
  },
  guard: async (c, id) => {
    const [found] = await batch(c, [
      c.get("db").select({ id: priceLists.id }).from(priceLists).where(eq(priceLists.id, id)),
    ]);
    if (found.length === 0) throw notFound("Price list");
    return { price_list_id: id };
  },
  processor: priceListPrices,
  invalidates: ["price_lists"],
} satisfies BulkOperation;
