/** The four bulk operations the push CLI submits to, by the `--kind` that names them. */
export interface Kind {
  /** The operation's path, `{id}` standing for `--price-list`. */
  path: string;
  /** The body key holding the records. */
  itemsKey: string;
  /** The record schema in openapi.json (types the CSV cells). */
  schema: string;
  /** `options.match_by` values; empty: the operation takes none. */
  matchBy: readonly string[];
  modes?: readonly string[];
}

export const KINDS = {
  products: {
    path: "/api/v1/products/bulk",
    itemsKey: "products",
    schema: "ProductBulkRecord",
    matchBy: ["id", "internal_id"],
  },
  variants: {
    path: "/api/v1/variants/bulk",
    itemsKey: "variants",
    schema: "VariantBulkRecord",
    matchBy: ["id", "internal_id", "ean", "sku_supplier"],
  },
  "price-list-prices": {
    path: "/api/v1/price-lists/{id}/variant-prices/bulk",
    itemsKey: "prices",
    schema: "PriceListPriceBulkRecord",
    matchBy: ["variant_id", "variant_internal_id", "ean", "sku_supplier"],
    modes: ["upsert", "delete"],
  },
  "link-identifiers": {
    path: "/api/v1/products/link-identifiers",
    itemsKey: "items",
    schema: "LinkIdentifiersItem",
    matchBy: [],
  },
} as const satisfies Record<string, Kind>;

export type KindName = keyof typeof KINDS;

export const isKindName = (name: string): name is KindName => Object.hasOwn(KINDS, name);
