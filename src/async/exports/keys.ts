import type { ExportFormat } from "./operation.ts";

/** The export's file in the payloads bucket, beside the bulk payloads (`jobs/<id>/…`). */
export const resultKey = (jobId: string) => `jobs/${jobId}/result`;

/** The bytes written after the full part `partNumber`, which the next message starts from. */
export const carryKey = (jobId: string, partNumber: number) => `jobs/${jobId}/carry-${partNumber}`;

export const RESULT_TYPES: Record<ExportFormat, string> = {
  jsonl: "application/x-ndjson",
  csv: "text/csv; charset=utf-8",
};

/** The stored file's metadata: its type, and gzip (src/async/exports/gzip-text.ts). */
export const resultMetadata = (format: ExportFormat): R2HTTPMetadata => ({
  contentType: RESULT_TYPES[format],
  contentEncoding: "gzip",
});
