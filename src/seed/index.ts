import { CACHE_DOMAINS, generationBumpStatement } from "../db/cache-generations.ts";
import { brandStatements } from "./brands.ts";
import { categoryStatements } from "./categories.ts";
import { contactStatements } from "./contacts.ts";
import { jobStatements } from "./jobs.ts";
import { localKeyStatements } from "./keys.ts";
import { orderStatements } from "./orders.ts";
import { priceListStatements } from "./price-lists.ts";
import { productStatements } from "./products.ts";
import { reviewStatements } from "./reviews.ts";
import type { SeedStatement } from "./sql.ts";
import { storeStatements } from "./store.ts";
import { supplierStatements } from "./suppliers.ts";

export { displayPrefix, LOCAL_KEYS } from "./keys.ts";
export {
  MAX_PARAMS_PER_STATEMENT,
  type SeedStatement,
  toSqlScript,
} from "./sql.ts";

export interface SeedOptions {
  /** Multiplies every row count (1 = the demo). Any positive number; counts round, at least 1 row each. */
  scale?: number;
  /** Adds the two well-known local API keys (local development only). */
  includeLocalKeys?: boolean;
}

/**
 * The deterministic demo data as parameterized statements, parents before children, each binding
 * fewer than 100 parameters. Meant for an empty database (the store row is replaced); the same
 * options always give the same statements. Pure TypeScript: runs under Node and in workerd.
 */
export async function buildSeed(options: SeedOptions = {}): Promise<SeedStatement[]> {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0)
    throw new RangeError(`scale must be a positive number, got ${scale}`);
  return [
    ...storeStatements(),
    ...supplierStatements(scale),
    ...brandStatements(scale),
    ...categoryStatements(scale),
    ...productStatements(scale),
    ...contactStatements(scale),
    ...orderStatements(scale),
    ...reviewStatements(scale),
    ...priceListStatements(scale),
    ...jobStatements(),
    ...(options.includeLocalKeys ? await localKeyStatements() : []),
    // A (re)load changes every domain: a running `npm run dev` serves none of its cached answers again.
    generationBumpStatement(CACHE_DOMAINS) as SeedStatement,
  ];
}
