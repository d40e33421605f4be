import { type SQL, sql } from "drizzle-orm";
import type { ExportOperation, ExportRow } from "../../async/exports/operation.ts";
import { SUPPORTED_LOCALES } from "../../lib/locales.ts";
import { catalogExport, groupBy, variantLine, variantRecords } from "../variants/variants.export-records.ts";
import { ProductUpsertRecord } from "./products.bulk-record.ts";

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

const pairs = (alias: string, fields: readonly string[]) =>
  sql.raw(fields.map((f) => `'${f}', ${alias}.${f}`).join(", "));

/**
 * A product's record as SQLite builds it, in parts joined by `lines`: the product's fields, its
 * `category_ids` (main category first) and `images` by position; each translation as one entry;
 * each variant created before the export started, by position. Each part's related rows are
 * searched by their key; the parts are joined as text (a JSON value crossing a subquery is text).
 */
const productHeads = (page: SQL) =>
  sql`SELECT p.id, json_object(${pairs("p", PRODUCT_FIELDS)}) AS head,
      (SELECT json_group_array(c.category_id ORDER BY c.position)
        FROM product_categories c WHERE c.product_id = p.id) AS category_ids,
      (SELECT json_group_array(json_object('url', i.url, 'position', i.position) ORDER BY i.position)
        FROM product_images i WHERE i.product_id = p.id) AS images
    FROM (${page}) AS page CROSS JOIN products p ON p.id = page.id ORDER BY page.id`;

const productTranslations = (page: SQL) =>
  sql`SELECT t.product_id, t.locale, json_object(${pairs("t", TEXT_FIELDS)}) AS entry
    FROM (${page}) AS page CROSS JOIN product_translations t ON t.product_id = page.id`;

/** `{…fields, "category_ids", "images", "translations": {…}, "variants": […]}`, joined as text. */
function productLines([heads = [], translations = [], variants = []]: ExportRow[][]): string[] {
  const entries = groupBy(translations, "product_id");
  const variantsOf = groupBy(variants, "product_id");
  return heads.map((row) => {
    const head = (row.head as string).slice(0, -1);
    const locales = (entries.get(row.id) ?? []).map(
      (t) => `${JSON.stringify(t.locale)}:${t.entry as string}`,
    );
    const records = (variantsOf.get(row.id) ?? []).map(variantLine);
    return `${head},"category_ids":${row.category_ids as string},"images":${row.images as string},"translations":{${locales.join(",")}},"variants":[${records.join(",")}]}`;
  });
}

export const productsExport = {
  ...catalogExport("Products"),
  description:
    "Starts a job (type `products_export`) writing every product matching `filters` (the filters of `GET /api/v1/products`) to a file: one products upsert record per line (`ProductBulkRecord`: the product with its categories, images, translations in every locale and its variants with their prices), in JSONL or CSV. Read it from `GET /api/v1/jobs/{id}/result` once the job is final; pushing it back unchanged (`match_by: id`) changes nothing. `summary.total_records` is the number of products counted when the job starts, `processed_records` the lines written so far.",
  count: (rows) => sql`SELECT count(*) AS n FROM (${rows})`,
  statements: (page, bounds) => [productHeads(page), productTranslations(page), variantRecords(page, bounds)],
  lines: productLines,
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
