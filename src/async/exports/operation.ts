import type { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { AnyResource } from "../../conventions/resource.ts";
import type { ExportJobType } from "../bulk/types.ts";

export const EXPORT_FORMATS = ["jsonl", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The highest ids when an export started: `id` of the listed table, and any other the operation
 * reads (`variant`). Rows created after the start are not exported, so the file holds no more
 * records than were counted.
 */
export type ExportBounds = Record<string, number>;

/**
 * One export: the route starting it, the listed resource whose filters select its rows (walked in
 * id order, a page per statement batch), and how a page's rows become records in the shape of the
 * matching bulk operation. Each lives next to its resource (`<name>.export.ts`) and is listed once
 * in src/resources/job-operations.ts.
 */
export interface ExportOperation<T extends ExportJobType = ExportJobType> {
  type: T;
  route: { path: string; operationId: string; tag: string };
  summary: string;
  description: string;
  /** The listed resource: the export's `filters` are its list's, its rows are walked by id. */
  resource: AnyResource;
  /** One row of the bounds besides `id` (`SELECT max(id) AS variant FROM variants`), or none. */
  bounds?: SQL;
  /** How many records the rows `rows` selects (their ids, one column `id`) make. */
  count: (rows: SQL, bounds: ExportBounds) => SQL;
  /**
   * The statements reading a page's records as JSON text SQLite builds; `page` selects the page's
   * ids (column `id`). Each row's text has a bound size (a record's parts, not a whole product):
   * D1 refuses a value over 2 MB, and a product's 14 locales of texts may exceed it.
   */
  statements: (page: SQL, bounds: ExportBounds) => SQL[];
  /** The page's records as JSON text, in file order, joined from the statements' rows. */
  lines: (rows: ExportRow[][]) => string[];
  /** The record as documented: the bulk operation's record, which takes every line back. */
  record: z.ZodObject;
  /** The CSV header: dotted columns as the push CLI reads them. */
  csvColumns: readonly string[];
  bodyExample: Record<string, unknown>;
}

/** A row of a page's statements, with SQL column names. */
export type ExportRow = Record<string, unknown>;

/** Every export operation by the job type it runs. */
export type ExportOperations = { readonly [T in ExportJobType]: ExportOperation<T> };
