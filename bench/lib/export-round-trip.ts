import { MAX_BODY_BYTES } from "../../scripts/lib/push/args.ts";
import { KINDS } from "../../scripts/lib/push/kinds.ts";
import { splitIntoParts } from "../../scripts/lib/push/parts.ts";
import { readRecords } from "../../scripts/lib/push/read-records.ts";
import { runBulk } from "./bulk.ts";
import { openDb } from "./database.ts";
import { log } from "./log.ts";

/** The products export pushed back unchanged: what its jobs wrote (`fields=writes`). */
export interface RoundTrip {
  records: number;
  jobs: number;
  failed: number;
  unchanged: number;
  rowsWritten: number;
  /** The catalog rows the file's records hold: what a first import writes at the least. */
  firstImportRows: number;
  wallMs: number;
}

/** The tables a products upsert record fills, one row each at least on a first import. */
const RECORD_TABLES = [
  "products",
  "product_translations",
  "product_categories",
  "product_images",
  "variants",
  "variant_prices",
  "variant_translations",
];

export function catalogRecordRows(sqliteFile: string) {
  const db = openDb(sqliteFile, true);
  const rows = RECORD_TABLES.reduce(
    (n, table) => n + (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    0,
  );
  db.close();
  return rows;
}

/**
 * Pushes the exported JSONL back as the push CLI splits it (bodies of at most 10 MiB, `match_by:
 * id`), one job after another, and sums each job's `writes`.
 */
export async function pushBack(o: {
  origin: string;
  secret: string;
  file: string;
  firstImportRows: number;
  errors: string[];
}): Promise<RoundTrip> {
  const kind = KINDS.products;
  const target = { path: kind.path, itemsKey: kind.itemsKey, options: { match_by: "id" } };
  const out: RoundTrip = {
    records: 0,
    jobs: 0,
    failed: 0,
    unchanged: 0,
    rowsWritten: 0,
    firstImportRows: o.firstImportRows,
    wallMs: 0,
  };
  const started = performance.now();
  const parts = splitIntoParts(readRecords(o.file, "jsonl", kind.schema), target, MAX_BODY_BYTES, (f) =>
    o.errors.push(`export round trip: line ${f.position} not sent: ${f.code} ${f.message}`),
  );
  for await (const part of parts) {
    const job = await runBulk({
      origin: o.origin,
      path: kind.path,
      secret: o.secret,
      payload: { body: part.body, records: part.records.length, variants: 0, prices: 0 },
      timeoutMs: 10 * 60_000,
    });
    const res = await fetch(`${o.origin}/api/v1/jobs/${job.jobId}?fields=summary,writes`, {
      headers: { authorization: `Bearer ${o.secret}` },
    });
    const body = (await res.json()) as {
      summary: { failed_records: number };
      writes: { unchanged_records: number; rows_written: number };
    };
    out.jobs++;
    out.records += part.records.length;
    out.failed += body.summary.failed_records;
    out.unchanged += body.writes.unchanged_records;
    out.rowsWritten += body.writes.rows_written;
  }
  out.wallMs = performance.now() - started;
  log(
    `export round trip: ${out.records} records in ${out.jobs} jobs, ${out.unchanged} unchanged, ${out.rowsWritten} rows written`,
  );
  return out;
}
