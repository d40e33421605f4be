import type { BulkJobType } from "../../src/async/bulk/types.ts";

/**
 * Representative chunks of the four bulk operations, covering every branch that issues a different
 * statement (lookups and writes): what test/bulk/statement-plans.test.ts explains. Pure data over the ids of
 * an existing catalog, so any catalog with these facts can be planned against.
 */
export interface FactVariant {
  id: number;
  internalId: string;
  ean: string;
  sku: string;
  supplierInternalId: string;
}

export interface FactProduct {
  id: number;
  internalId: string;
  /** A `with-variants` product's variants (at least one). */
  variants: FactVariant[];
}

export interface CatalogFacts {
  /** Existing `with-variants` products, each with distinct variants (at least 4). */
  products: FactProduct[];
  brandId: number;
  supplierId: number;
  categoryIds: number[];
  priceListId: number;
  /** Variants with a fixed price in `priceListId` (at least 8), and without one (at least 4). */
  pricedVariants: FactVariant[];
  unpricedVariants: FactVariant[];
}

export interface PlanCase {
  name: string;
  type: BulkJobType;
  params: Record<string, unknown>;
  records: unknown[];
}

const eur = (amount: string) => ({ amount, currency: "EUR" });

/** Fields of a variant write exercising every statement: prices merged and removed, translations merged and removed. */
const variantWrite = (tag: string) => ({
  warehouse_stock: 7,
  cost_price: null,
  prices: {
    market_es: { list_price: eur("19.90"), offer_price: null, flash_offer: null },
    market_fr: null,
  },
  translations: { "es-ES": { name: `Talla ${tag}` }, "fr-FR": null },
});

export function planCases(f: CatalogFacts, run: string): PlanCase[] {
  const [p0, p1, p2, p3] = f.products as [FactProduct, FactProduct, FactProduct, FactProduct];
  const v = (p: FactProduct) => p.variants[0] as FactVariant;
  const newProduct = (n: number) => ({
    internal_id: `${run}-NEW-${n}`,
    product_structure: "with-variants",
    status: "published",
    brand_id: f.brandId,
    supplier_id: f.supplierId,
    category_ids: f.categoryIds,
    images: [
      { url: `https://img.example/${run}-${n}.jpg` },
      { url: "https://img.example/b.jpg", position: 0 },
    ],
    translations: {
      "es-ES": { name: `Nuevo ${run} ${n}`, description: null },
      "en-GB": { name: `New ${run} ${n}`, meta_title: null },
      "fr-FR": null,
    },
    variants: [
      {
        sku: `${run}-NEW-${n}-A`,
        internal_id: `${run}-NEWV-${n}-A`,
        ean: `${run}${n}`,
        prices: {
          market_es: { list_price: eur("10.00"), offer_price: null },
          market_en: { list_price: { amount: "9.00", currency: "GBP" } },
          market_fr: null,
        },
        translations: { "es-ES": { name: "A" }, "de-DE": null },
      },
      { sku: `${run}-NEW-${n}-B`, prices: { market_es: { list_price: eur("11.00") } } },
    ],
  });
  /** An update of an existing product touching every related table, and a new nested variant. */
  const productUpdate = (p: FactProduct, key: Record<string, unknown>) => ({
    ...key,
    product_structure: "with-variants",
    brand_id: f.brandId,
    supplier_id: f.supplierId,
    model_code: null,
    category_ids: f.categoryIds,
    images: [{ url: `https://img.example/${run}-${p.id}.jpg` }],
    translations: {
      "es-ES": { name: `Renombrado ${run} ${p.id}`, description: null },
      "it-IT": { name: `Nuovo ${run} ${p.id}` },
      "fr-FR": null,
    },
    variants: [
      { id: v(p).id, ...variantWrite(`${p.id}`) },
      { internal_id: `${run}-NESTED-${p.id}`, sku: `${run}-NESTED-${p.id}`, ...variantWrite("new") },
    ],
  });
  const productsById: PlanCase = {
    name: "products upsert by id (existing)",
    type: "products_bulk_upsert",
    params: { options: { match_by: "id" } },
    records: [productUpdate(p0, { id: p0.id })],
  };
  const productsByInternalId: PlanCase = {
    name: "products upsert by internal_id (new and existing)",
    type: "products_bulk_upsert",
    params: { options: { match_by: "internal_id" } },
    records: [
      newProduct(1),
      newProduct(2),
      {
        ...productUpdate(p1, { internal_id: p1.internalId }),
        // A nested variant matched by its internal id, and a supplier removed.
        supplier_id: null,
        variants: [{ internal_id: v(p1).internalId, ...variantWrite("by internal id") }],
      },
    ],
  };

  const variantCases = (
    [
      ["id", (x: FactVariant) => ({ id: x.id })],
      ["internal_id", (x: FactVariant) => ({ internal_id: x.internalId })],
      ["ean", (x: FactVariant) => ({ ean: x.ean })],
      ["sku_supplier", (x: FactVariant) => ({ sku: x.sku, supplier_internal_id: x.supplierInternalId })],
    ] as const
  ).map(
    ([matchBy, key], i): PlanCase => ({
      name: `variants update by ${matchBy}`,
      type: "variants_bulk_update",
      params: { options: { match_by: matchBy } },
      records: [{ ...key(v(i % 2 === 0 ? p2 : p3)), ...variantWrite(matchBy) }],
    }),
  );

  const priceKeys = [
    ["variant_id", (x: FactVariant) => ({ variant_id: x.id })],
    ["variant_internal_id", (x: FactVariant) => ({ variant_internal_id: x.internalId })],
    ["ean", (x: FactVariant) => ({ ean: x.ean })],
    ["sku_supplier", (x: FactVariant) => ({ sku: x.sku, supplier_internal_id: x.supplierInternalId })],
  ] as const;
  const priced = (i: number) => f.pricedVariants[i] as FactVariant;
  const unpriced = (i: number) => f.unpricedVariants[i] as FactVariant;
  const priceCases = priceKeys.flatMap(([matchBy, key], i): PlanCase[] => [
    {
      name: `price-list prices upsert by ${matchBy}`,
      type: "price_list_variant_prices_bulk_update",
      params: { price_list_id: f.priceListId, options: { match_by: matchBy, mode: "upsert" } },
      records: [
        { ...key(priced(i)), minimum_quantity: 2 },
        { ...key(unpriced(i)), price: { amount: "12.00", currency_code: "EUR" }, quantity_multiple: 3 },
      ],
    },
    {
      name: `price-list prices delete by ${matchBy}`,
      type: "price_list_variant_prices_bulk_update",
      params: { price_list_id: f.priceListId, options: { match_by: matchBy, mode: "delete" } },
      records: [key(priced(4 + i))],
    },
  ]);

  const linkCase: PlanCase = {
    name: "identifiers link by ean and by sku + supplier",
    type: "identifiers_link",
    params: {},
    records: [
      { ean: v(p2).ean, product_internal_id: `${run}-LINK-P1`, variant_internal_id: `${run}-LINK-V1` },
      {
        sku: v(p3).sku,
        supplier_internal_id: v(p3).supplierInternalId,
        variant_internal_id: `${run}-LINK-V2`,
      },
    ],
  };

  return [productsById, productsByInternalId, ...variantCases, ...priceCases, linkCase];
}
