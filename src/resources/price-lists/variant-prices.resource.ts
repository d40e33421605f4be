import { and, eq, type SQL, sql } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { idsFilter, stringsFilter, viaRelated } from "../../conventions/filters.ts";
import { defineResource, type FieldDef } from "../../conventions/resource.ts";
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
import { intParam, stringListParam } from "../../http/params.ts";
import { pathId } from "../../http/route.ts";
import { storedMoney } from "../../lib/money.ts";
import { PriceListVariantPriceSchema } from "./price-lists.schema.ts";

/** Keyed by `variant_id` within one price list: the engine aliases it as the row `id`. */
type VariantPriceRow = typeof priceListVariantPrices.$inferSelect & { id: number };

interface VariantInfo {
  id: number;
  internalId: string | null;
  sku: string | null;
  ean: string | null;
  productId: number;
  productInternalId: string | null;
  supplierId: number | null;
  supplierInternalId: string | null;
  variantName: string | null;
  productName: string | null;
}

const info = (row: VariantPriceRow, related: Record<string, Map<number, unknown>>) =>
  related.variantInfo?.get(row.id) as VariantInfo | undefined;

/** Rows whose variant matches `condition` (on `variants`, joined to its product and supplier). */
const variantWhere = (condition: SQL) =>
  sql`${priceListVariantPrices.variantId} IN (SELECT ${variants.id} FROM ${variants} INNER JOIN ${products} ON ${products.id} = ${variants.productId} WHERE ${condition})`;

const variantInfoField = <K extends keyof VariantInfo>(key: K) => ({
  kind: "default" as const,
  needs: ["variantInfo"],
  render: (r: VariantPriceRow, related: Record<string, Map<number, unknown>>) =>
    info(r, related)?.[key] ?? null,
});

/**
 * The fixed prices of one price list, listed under it (`parent`). The
 * variant's supplier is its product's. `display_name` is the variant's name in
 * the store's primary locale, else the product's name there: the list takes no `locales`.
 */
export const variantPriceResource = defineResource<{
  row: VariantPriceRow;
  item: typeof PriceListVariantPriceSchema;
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
  cache: ["price_lists", "catalog"],
  perPage: { default: 100, max: 500 },
  fields: {
    variant_id: column(priceListVariantPrices.variantId, "fixed"),
    variant_internal_id: variantInfoField("internalId"),
    // A price row's variant always exists (its prices go with it), so the lookup finds its product.
    product_id: variantInfoField("productId") as FieldDef<VariantPriceRow, number>,
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
  loaders: {
    variantInfo: {
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
      collect: (result) => new Map((result as VariantInfo[]).map((r) => [r.id, r])),
    },
  },
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
    supplier_id: {
      schema: intParam({ min: 1, description: "Variants whose product has this supplier." }),
      where: (v: number) => variantWhere(eq(products.supplierId, v)),
    },
    supplier_internal_id: {
      schema: stringListParam("Supplier internal ids (exact).", 200, 100),
      // The supplier's id first, so the products' supplier index finds its products (a join to
      // suppliers made SQLite walk every product of the catalog).
      where: (v: string[]) =>
        variantWhere(
          sql`${products.supplierId} IN (SELECT ${suppliers.id} FROM ${suppliers} WHERE ${jsonIn(suppliers.internalId, v)})`,
        ),
    },
    variant_ids: idsFilter(priceListVariantPrices.variantId, "Variant ids.", 200),
    variant_internal_ids: viaRelated(
      variantWhere,
      stringsFilter(variants.internalId, "Variant internal ids (exact)."),
    ),
  },
  sorts: { variant_id: { column: priceListVariantPrices.variantId } },
  defaultSort: "variant_id_asc",
});
