import type { RecordProblems } from "../../async/bulk/record-errors.ts";
import { slugCandidate } from "../../lib/slug.ts";
import type { ExistingVariant } from "./products.bulk-lookups.ts";
import type { ProductRecord } from "./products.bulk-record.ts";

/** Hands out ids and slugs for rows this chunk creates (the UNIQUE/PK indexes stay the arbiters). */
export class Allocator {
  constructor(
    private productId: number,
    private variantId: number,
    private readonly taken: Map<string, Set<string>>,
  ) {}

  nextProduct = () => ++this.productId;
  nextVariant = () => ++this.variantId;

  slug(locale: string, base: string): string {
    const taken = this.taken.get(locale) ?? new Set<string>();
    this.taken.set(locale, taken);
    // At most `taken.size` candidates are taken: one of the first `taken.size + 1` is free.
    for (let n = 1; ; n++) {
      const candidate = slugCandidate(base, n);
      if (!taken.has(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
  }
}

export type MarketChange = [variantId: number, market: string, priced: boolean];

/** What planning one product record reads and notes besides the chunk's row ops. */
export interface PlanContext {
  /** Markets priced or removed by this record's updates of existing variants. */
  marketChanges: MarketChange[];
  record: ProductRecord;
  problems: RecordProblems;
  /** Fields sent with an invalid value (already reported): their required-field checks are skipped. */
  invalid: Set<string>;
  now: string;
  allocator: Allocator;
  variants: ExistingVariants;
  markets: Map<number, Set<string>>;
}

/**
 * The chunk's existing variants by product and by internal id, indexed once per chunk: each record
 * searched the whole list (a chunk group of 580 re-sent products and their 1,740 variants: about
 * 4 million comparisons).
 */
export class ExistingVariants {
  private readonly byProduct = new Map<number, ExistingVariant[]>();
  private readonly byInternalId = new Map<string, ExistingVariant[]>();

  constructor(variants: readonly ExistingVariant[]) {
    for (const v of variants) {
      push(this.byProduct, v.product_id, v);
      if (v.internal_id !== null) push(this.byInternalId, v.internal_id, v);
    }
  }

  /** The variants of a product, in lookup order. */
  of = (productId: number): ExistingVariant[] => this.byProduct.get(productId) ?? [];

  /** The variants with this internal id, in lookup order. */
  withInternalId = (internalId: string): ExistingVariant[] => this.byInternalId.get(internalId) ?? [];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
