import type { ExportOperation } from "../../async/exports/operation.ts";
import { VariantUpdateRecord } from "./variants.bulk-processor.ts";
import {
  catalogExport,
  VARIANT_CSV_COLUMNS,
  variantCount,
  variantLine,
  variantRecords,
} from "./variants.export-records.ts";

export const variantsExport = {
  ...catalogExport("Variants"),
  description:
    "Starts a job (type `variants_export`) writing every variant of the products matching `filters` (the filters of `GET /api/v1/products`) to a file: one variants update record per line (`VariantBulkRecord`, with `id` and `internal_id`), in JSONL or CSV. Read it from `GET /api/v1/jobs/{id}/result` once the job is final; pushing it back unchanged (`match_by: id`) changes nothing. `summary.total_records` is the number of variants counted when the job starts, `processed_records` the lines written so far.",
  count: (rows, bounds) => variantCount(rows, bounds.variant ?? 0),
  statements: (page, bounds) => [variantRecords(page, bounds)],
  lines: ([variants = []]) => variants.map(variantLine),
  record: VariantUpdateRecord,
  csvColumns: VARIANT_CSV_COLUMNS,
  bodyExample: { filters: { status: "published", brand_ids: "1,2" }, format: "csv" },
} satisfies ExportOperation<"variants_export">;
