import { eq } from "drizzle-orm";
import type { MountRoute } from "../../conventions/routes.ts";
import { generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { batch } from "../../db/client.ts";
import { priceLists, priceListVariantPrices } from "../../db/schema/index.ts";
import { forgetGenerations } from "../../edge/generations.ts";
import { notFound } from "../../http/problem.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { VariantPricesDeletedSchema } from "./price-lists.schema.ts";

/** `DELETE /price-lists/{id}/variant-prices`: clears a list's fixed prices, keeping the list. */
const deleteVariantPrices: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      method: "delete",
      path: `/api/v1${resource.path}`,
      operationId: "deletePriceListVariantPrices",
      summary: "Delete all variant prices of a price list",
      description:
        "Removes every fixed variant price of the list (with its minimum quantity and quantity multiple). The price list and its configuration stay unchanged.",
      tags: [resource.tag],
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
      // The list's kept count, read in the delete's transaction, is what it removes (D1's
      // `meta.changes` would also count the count triggers' own updates).
      const [found] = await batch(c, [
        db
          .select({ count: priceLists.variantPricesCount })
          .from(priceLists)
          .where(eq(priceLists.id, params.id)),
        db.delete(priceListVariantPrices).where(eq(priceListVariantPrices.priceListId, params.id)),
        routeFeedEntry(db, "price_lists", params.id, { ifChanged: true }),
        generationBump(db, ["price_lists"], { ifChanged: true }),
      ]);
      forgetGenerations();
      const list = found[0];
      if (!list) throw notFound("Price list");
      return c.json({ deleted: list.count }, 200);
    },
  );

export const variantPriceRoutes: MountRoute[] = [deleteVariantPrices];
