import type { JobType, Processor } from "../types.ts";
import { identifiersLink } from "./identifiers-link.ts";
import { priceListPrices } from "./price-list-prices.ts";
import { productsUpsert } from "./products-upsert.ts";
import { variantsUpdate } from "./variants-update.ts";

const PROCESSORS: Record<JobType, Processor> = {
  products_bulk_upsert: productsUpsert,
  variants_bulk_update: variantsUpdate,
  price_list_variant_prices_bulk_update: priceListPrices,
  identifiers_link: identifiersLink,
};

export const processorFor = (type: JobType): Processor => PROCESSORS[type];
