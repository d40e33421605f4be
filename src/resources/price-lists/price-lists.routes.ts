import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { PriceListCreateSchema, PriceListUpdateSchema } from "./price-lists.schema.ts";
import { createPriceList, updatePriceList } from "./price-lists.write.ts";

export const priceListRoutes: MountRoute[] = [
  createRoute({
    description:
      "Creates the configuration only (no fixed variant prices). Percentages are decimal strings within -100..100; amounts are in EUR. Unknown category or brand ids are 400, one `errors[]` entry each.",
    body: PriceListCreateSchema,
    create: createPriceList,
  }),
  updateRoute({
    description:
      "Changes only the fields sent. A sent `category_discounts` or `brand_discounts` array replaces the whole array (`[]` clears it); `minimum_order_amount: null` removes it. Fixed variant prices are never touched.",
    body: PriceListUpdateSchema,
    update: updatePriceList,
  }),
];
