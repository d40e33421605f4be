import { and, eq, type SQL, sql } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { filter, idFilter, idsFilter, stringsFilter, viaRelated } from "../../conventions/filters.ts";
import { loader } from "../../conventions/loader.ts";
import { defineResource, type FieldDef, type RelatedOf } from "../../conventions/resource.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { keyedColumns } from "../../db/keyed-columns.ts";
import {
  priceLists,
  priceListVariantPrices,
  products,
  productTranslations,
  suppliers,
  variants,
  variantTranslations,
} from "../../db/schema/index.ts";
import { stringListParam } from "../../http/params.ts";
import { pathId } from "../../http/route.ts";
import { storedMoney } from "../../lib/money.ts";
import { PriceListVariantPriceSchema } from "./price-lists.schema.ts";

/** Keyed by `variant_id` within one price list: the engine aliases it as the row `id`. */
type VariantPriceRow = typeof priceListVariantPrices.$inferSelect & { id: number };

const variantPriceLoaders = {
  /** Each price row's variant with its product, supplier and names in the store's primary locale. */
  variantInfo: loader({
    query: (db, ids, ctx) =>
      db
        // Every column named as its key (`id`, `internal_id` and `name` appear in several of
        // these tables, and in a D1 batch rows map by column name).
        .select(
          keyedColumns({
            id: variants.id,
            internalId: variants.internalId,
            sku: variants.sku,
            ean: variants.ean,
            productId: products.id,
            productInternalId: products.internalId,
            supplierId: suppliers.id,
            supplierInternalId: suppliers.internalId,
            variantName: variantTranslations.name,
            productName: productTranslations.name,
          }),
        )
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .leftJoin(suppliers, eq(suppliers.id, products.supplierId))
        .leftJoin(
          variantTranslations,
          and(
            eq(variantTranslations.variantId, variants.id),
            eq(variantTranslations.locale, ctx.store.primaryLocale),
          ),
        )
        .leftJoin(
          productTranslations,
          and(
            eq(productTranslations.productId, products.id),
            eq(productTranslations.locale, ctx.store.primaryLocale),
          ),
        )
        .where(ids.in(variants.id)),
    collect: (rows) => new Map(rows.map((r) => [r.id, r])),
  }),
};

type VariantPriceRelated = RelatedOf<typeof variantPriceLoaders>;

const info = (row: VariantPriceRow, related: VariantPriceRelated) => related.variantInfo?.get(row.id);

/** Rows whose variant matches `condition` (on `variants`, joined to its product and supplier). */
const variantWhere = (condition: SQL) =>
  sql`${priceListVariantPrices.variantId} IN (SELECT ${variants.id} FROM ${variants} INNER JOIN ${products} ON ${products.id} = ${variants.productId} WHERE ${condition})`;

type VariantInfo = NonNullable<ReturnType<typeof info>>;

const variantInfoField = <K extends keyof VariantInfo>(
  key: K,
): FieldDef<VariantPriceRow, VariantInfo[K] | null, VariantPriceRelated> => ({
  kind: "default",
  needs: ["variantInfo"],
  render: (r, related) => info(r, related)?.[key] ?? null,
});

/**
 * The fixed prices of one price list, listed under it (`parent`). The
 * variant's supplier is its product's. `display_name` is the variant's name in
 * the store's primary locale, else the product's name there: the list takes no `locales`.
 */
export const variantPriceResource = defineResource<{
  row: VariantPriceRow;
  item: typeof PriceListVariantPriceSchema;
  loaders: typeof variantPriceLoaders;
}>({
  name: "price-list-variant-prices",
  label: "Price-list variant price",
  path: "/price-lists/{id}/variant-prices",
  tag: "Price lists",
  plural: "Variant prices",
  item: PriceListVariantPriceSchema,
  description:
    "The fixed prices of one price list (default `per_page` 100, max 500). `display_name` is the variant's name in the store's primary locale, else its product's.",
  parent: {
    label: "Price list",
    table: priceLists,
    idColumn: priceLists.id,
    params: pathId,
    column: priceListVariantPrices.priceListId,
    summary: "List variant prices of a price list",
  },
  table: priceListVariantPrices,
  idColumn: priceListVariantPrices.variantId,
  localized: false,
  // Each price shows its variant (sku, names).
  cache: ["price_lists", "products"],
  perPage: { default: 100, max: 500 },
  fields: {
    variant_id: column(priceListVariantPrices.variantId, "fixed"),
    variant_internal_id: variantInfoField("internalId"),
    // A price row's variant always exists (its prices go with it), so the lookup finds its product.
    product_id: variantInfoField("productId") as FieldDef<VariantPriceRow, number, VariantPriceRelated>,
    product_internal_id: variantInfoField("productInternalId"),
    ean: variantInfoField("ean"),
    sku: variantInfoField("sku"),
    supplier_id: variantInfoField("supplierId"),
    supplier_internal_id: variantInfoField("supplierInternalId"),
    display_name: {
      kind: "default",
      needs: ["variantInfo"],
      render: (r, related) => {
        const v = info(r, related);
        return v?.variantName ?? v?.productName ?? null;
      },
    },
    price: { kind: "default", render: (r) => storedMoney(r.amount, r.currency) },
    min_quantity: column(priceListVariantPrices.minQuantity, "default"),
    quantity_factor: column(priceListVariantPrices.quantityFactor, "default"),
  },
  loaders: variantPriceLoaders,
  filters: {
    ean: viaRelated(variantWhere, stringsFilter(variants.ean, "Variant EANs (exact).", { maxLength: 64 })),
    product_ids: viaRelated(variantWhere, idsFilter(variants.productId, "Product ids.", 200)),
    product_internal_ids: viaRelated(
      variantWhere,
      stringsFilter(products.internalId, "Product internal ids (exact)."),
    ),
    sku: viaRelated(
      variantWhere,
      stringsFilter(variants.sku, "Variant SKUs (exact, case-insensitive).", {
        maxLength: 64,
        caseInsensitive: true,
      }),
    ),
    supplier_id: viaRelated(
      variantWhere,
      idFilter(products.supplierId, "Variants whose product has this supplier."),
    ),
    supplier_internal_id: filter(
      stringListParam("Supplier internal ids (exact).", 200, 100),
      // The supplier's id first, so the products' supplier index finds its products (a join to
      // suppliers made SQLite walk every product of the catalog).
      (v) =>
        variantWhere(
          sql`${products.supplierId} IN (SELECT ${suppliers.id} FROM ${suppliers} WHERE ${jsonIn(suppliers.internalId, v)})`,
        ),
    ),
    variant_ids: idsFilter(priceListVariantPrices.variantId, "Variant ids.", 200),
    variant_internal_ids: viaRelated(
      variantWhere,
      stringsFilter(variants.internalId, "Variant internal ids (exact)."),
    ),
  },
  sorts: { variant_id: { column: priceListVariantPrices.variantId } },
  defaultSort: "variant_id_asc",
});
