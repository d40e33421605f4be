import { sql } from "drizzle-orm";
import type { ExportOperation, ExportRow } from "../../async/exports/operation.ts";
import { SUPPORTED_LOCALES } from "../../lib/locales.ts";
import {
  groupBy,
  translationsOf,
  variantBound,
  variantRecords,
  variantStatements,
} from "../variants/variants.export-records.ts";
import { ProductUpsertRecord } from "./products.bulk-record.ts";
import { productResource } from "./products.resource.ts";

/** The translated fields of a products upsert record, as stored. */
const TEXT_FIELDS = [
  "name",
  "description",
  "body_html",
  "long_name",
  "meta_title",
  "meta_description",
] as const;

/** Scalar fields of the record, as the product row stores them. */
const PRODUCT_FIELDS = [
  "id",
  "internal_id",
  "product_structure",
  "status",
  "product_kind",
  "stock_management",
  "online_availability",
  "model_code",
  "tax_category",
  "supplier_id",
  "brand_id",
] as const;

const byPosition = (a: ExportRow, b: ExportRow) => (a.position as number) - (b.position as number);

export const productsExport = {
  type: "products_export",
  route: { path: "/api/v1/products/export", operationId: "exportProducts", tag: "Products" },
  summary: "Export products (asynchronous)",
  description:
    "Starts a job (type `products_export`) writing every product matching `filters` (the filters of `GET /api/v1/products`) to a file: one products upsert record per line (`ProductBulkRecord`: the product with its categories, images, translations in every locale and its variants with their prices), in JSONL or CSV. Read it from `GET /api/v1/jobs/{id}/result` once the job is final; pushing it back unchanged (`match_by: id`) changes nothing. `summary.total_records` is the number of products counted when the job starts, `processed_records` the lines written so far.",
  resource: productResource,
  bounds: variantBound,
  count: (rows) => sql`SELECT count(*) AS n FROM (${rows})`,
  statements: (page, bounds) => {
    const ofPage = (table: string, alias: string) =>
      sql`(${page}) AS page CROSS JOIN ${sql.raw(table)} ${sql.raw(alias)} ON ${sql.raw(alias)}.product_id = page.id`;
    return [
      sql`SELECT ${sql.raw(PRODUCT_FIELDS.map((f) => `p.${f}`).join(", "))}
          FROM (${page}) AS page CROSS JOIN products p ON p.id = page.id`,
      sql`SELECT t.product_id, t.locale, ${sql.raw(TEXT_FIELDS.map((f) => `t.${f}`).join(", "))}
          FROM ${ofPage("product_translations", "t")}`,
      sql`SELECT c.product_id, c.category_id, c.position FROM ${ofPage("product_categories", "c")}`,
      sql`SELECT i.product_id, i.url, i.position FROM ${ofPage("product_images", "i")}`,
      ...variantStatements(page, bounds),
    ];
  },
  records: (ids, rows) => {
    const [products = [], translations = [], categories = [], images = [], ...variantRows] = rows;
    const productOf = new Map(products.map((p) => [p.id, p]));
    const translationsOfProduct = groupBy(translations, "product_id");
    const categoriesOf = groupBy(categories, "product_id");
    const imagesOf = groupBy(images, "product_id");
    const variantsOf = variantRecords(variantRows);
    return ids.flatMap((id) => {
      const product = productOf.get(id);
      if (!product) return [];
      return [
        {
          ...Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, product[f]])),
          category_ids: [...(categoriesOf.get(id) ?? [])].sort(byPosition).map((c) => c.category_id),
          images: [...(imagesOf.get(id) ?? [])]
            .sort(byPosition)
            .map((i) => ({ url: i.url, position: i.position })),
          translations: translationsOf(translationsOfProduct.get(id), TEXT_FIELDS),
          variants: variantsOf.get(id) ?? [],
        },
      ];
    });
  },
  record: ProductUpsertRecord,
  csvColumns: [
    ...PRODUCT_FIELDS,
    "category_ids",
    "images",
    ...SUPPORTED_LOCALES.flatMap((l) => TEXT_FIELDS.map((f) => `translations.${l}.${f}`)),
    "variants",
  ],
  bodyExample: { filters: { brand_ids: "1,2", status: "published" }, format: "jsonl" },
} satisfies ExportOperation<"products_export">;
