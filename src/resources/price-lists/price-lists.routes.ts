import type { OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { mountCreate, mountGet, mountList, mountSubList, mountUpdate } from "../../conventions/routes.ts";
import { batch } from "../../db/client.ts";
import { priceLists, priceListVariantPrices } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { priceListResource } from "./price-lists.resource.ts";
import {
  PriceListCreateSchema,
  PriceListSchema,
  PriceListUpdateSchema,
  PriceListVariantPriceSchema,
  VariantPricesDeletedSchema,
} from "./price-lists.schema.ts";
import { createPriceList, updatePriceList } from "./price-lists.write.ts";
import { variantPriceResource } from "./variant-prices.resource.ts";

const TAG = "Price lists";

const read = {
  path: "/price-lists",
  tag: TAG,
  item: PriceListSchema,
  plural: "PriceLists",
  singular: "PriceList",
  description:
    "Price lists without their fixed variant prices. `locales` applies to the categories and brands nested in the discounts.",
};

export function registerPriceLists(app: OpenAPIHono<AppEnv>) {
  mountList(app, priceListResource, read);
  mountGet(app, priceListResource, read);

  mountCreate(app, priceListResource, {
    ...read,
    description:
      "Creates the configuration only (no fixed variant prices). Percentages are decimal strings within -100..100; amounts are in EUR. Unknown category or brand ids are 400, one `errors[]` entry each.",
    body: PriceListCreateSchema,
    create: createPriceList,
  });

  mountUpdate(app, priceListResource, {
    ...read,
    description:
      "Changes only the fields sent. A sent `category_discounts` or `brand_discounts` array replaces the whole array (`[]` clears it); `minimum_order_amount: null` removes it. Fixed variant prices are never touched.",
    body: PriceListUpdateSchema,
    update: updatePriceList,
  });

  mountSubList(app, variantPriceResource, {
    path: "/price-lists/{id}/variant-prices",
    params: pathId,
    param: "id",
    operationId: "listPriceListVariantPrices",
    summary: "List variant prices of a price list",
    description:
      "The fixed prices of one price list (default `per_page` 100, max 500). `display_name` is the variant's name in the store's primary locale, else its product's.",
    tag: TAG,
    item: PriceListVariantPriceSchema,
    parent: { label: "Price list", table: priceLists, idColumn: priceLists.id },
    belongsTo: (id) => eq(priceListVariantPrices.priceListId, id as number),
  });

  defineRoute(
    app,
    {
      method: "delete",
      path: "/api/v1/price-lists/{id}/variant-prices",
      operationId: "deletePriceListVariantPrices",
      summary: "Delete all variant prices of a price list",
      description:
        "Removes every fixed variant price of the list (with its minimum quantity and quantity multiple). The price list and its configuration stay unchanged.",
      tags: [TAG],
      scope: "write",
      params: pathId,
      responses: {
        200: {
          description: "How many fixed prices were removed",
          content: { "application/json": { schema: VariantPricesDeletedSchema } },
        },
      },
    },
    async (c, { params }) => {
      const db = c.get("db");
      const [found, deleted] = await batch(c, [
        db.select({ id: priceLists.id }).from(priceLists).where(eq(priceLists.id, params.id)),
        db.delete(priceListVariantPrices).where(eq(priceListVariantPrices.priceListId, params.id)),
      ]);
      if (found.length === 0) throw notFound("Price list");
      return c.json({ deleted: (deleted as unknown as D1Result).meta.changes }, 200);
    },
  );
}
