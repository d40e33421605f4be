import type { ExportStage } from "./export-stage.ts";
import type { Results } from "./results.ts";

const f = (x: number | undefined, digits = 0) =>
  x === undefined
    ? "–"
    : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const perSecond = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : 0);

/** Products per second an export of the whole catalog must reach end to end (wrangler dev). */
const EXPORT_TARGET_PRODUCTS_PER_S = 5000;

export function exportSection(r: Results): string[] {
  const e = r.exports;
  if (!e) return ["Not measured in this run (`npm run bench -- --only export` measures it alone)."];
  const http = e.http.map(
    (x) =>
      `| ${x.key} | ${x.status} | ${f(x.records)} | ${f(x.jobMs / 1000, 1)} | ${f(perSecond(e.products, x.jobMs))} | ${f(perSecond(x.records, x.jobMs))} | ${f(x.bytes / 1e6, 1)} MB | ${x.wireBytes > 0 ? `${f(x.wireBytes / 1e6, 1)} MB` : "–"} | ${f(x.downloadMs / 1000, 2)} |`,
  );
  const inProcess = e.inProcess.map(
    (x) =>
      `| ${x.key} | ${x.messages} | ${f(x.wallMs / 1000, 2)} | ${f(perSecond(e.products, x.wallMs))} | ${f(x.messageMs.median)} / ${f(x.messageMs.max)} | ${f(x.floorMs / 1000, 2)} (${x.floorStatements}) | ${f(perSecond(e.products, x.floorMs))} | ${f(x.floorMs > 0 ? x.wallMs / x.floorMs : 0, 1)}× | ${mib(x.memory.messagePeakBytes)} / ${mib(x.memory.messagePeakMedianBytes)} |`,
  );
  return [
    ...(e.run ? [`Measured by ${e.run}.`, ""] : []),
    `The whole catalog (${f(e.products)} products, ${f(e.variants)} variants, every locale and market): products as JSONL, variants as CSV. Over \`wrangler dev\`: from the POST until \`GET /api/v1/jobs/{id}\` (polled every 100 ms) shows the job final, then the file read through \`GET /api/v1/jobs/{id}/result\` with gzip (stored: the gzip bytes as R2 holds them and sends them, \`Content-Length\`; file: the text). Products/s counts the products walked (for the variants export too).`,
    "",
    "| export | status | records | job s | products/s | records/s | file | stored | download s |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...http,
    "",
    "In Node (`bench/export-inprocess.ts`: the served bundle's `fetch` and `queue` handler, node:sqlite, in-memory R2 and queue; each export timed once, then run again for its heap with a full GC before each message). Floor: every statement that read the catalog for the export (bounds, count, each page and its related rows) replayed once on node:sqlite. Heap: the JS heap's peak per message above the heap after a full GC before it (max / median), as the bulk path's is measured; the parts being written are at most two 5 MiB buffers of compressed bytes beside it (one uploading, one filling: ArrayBuffers, outside the JS heap).",
    "",
    "| export | messages | s | products/s | message ms (median / max) | floor s (statements) | floor products/s | × floor | heap peak per message |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...inProcess,
    ...roundTripSection(e.roundTrip),
  ];
}

/** A first import writes at least one row per catalog row of its records: the round trip's budget. */
const ROUND_TRIP_MAX_SHARE = 0.01;

function roundTripSection(t: ExportStage["roundTrip"]): string[] {
  if (!t) return [];
  return [
    "",
    `Round trip: the products file pushed back unchanged over \`wrangler dev\` as the push CLI splits it (bodies of at most 10 MiB, \`match_by: id\`), one job after another; each job's \`fields=writes\` summed. A first import writes at least one row per catalog row the records hold (products, their translations, categories, images, variants, prices, variant names: ${f(t.firstImportRows)} rows; index entries come on top).`,
    "",
    "| records | jobs | failed | unchanged_records | rows_written | share of a first import | s | records/s |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${f(t.records)} | ${t.jobs} | ${f(t.failed)} | ${f(t.unchanged)} | ${f(t.rowsWritten)} | ${f((100 * t.rowsWritten) / t.firstImportRows, 2)} % | ${f(t.wallMs / 1000, 1)} | ${f(perSecond(t.records, t.wallMs))} |`,
  ];
}

export function exportTargets(r: Results): string[] {
  const e = r.exports;
  if (!e) return [];
  const out: string[] = [];
  const products = e.http.find((x) => x.key === "products_jsonl");
  if (products) {
    const rate = perSecond(e.products, products.jobMs);
    out.push(
      `- Export of the catalog's products over wrangler dev: ${f(rate)} products/s (target ≥ ${f(EXPORT_TARGET_PRODUCTS_PER_S)}) ${rate >= EXPORT_TARGET_PRODUCTS_PER_S ? "✅" : "❌"}`,
    );
  }
  const inProcess = e.inProcess.find((x) => x.key === "products_jsonl");
  if (inProcess && products) {
    const ratio = inProcess.floorMs > 0 ? products.jobMs / inProcess.floorMs : 0;
    out.push(
      `- The same export against its SQL floor (the page statements on node:sqlite): ${f(ratio, 1)}× end to end over wrangler dev, ${f(inProcess.floorMs > 0 ? inProcess.wallMs / inProcess.floorMs : 0, 1)}× in Node (target ≤ 2×) ${ratio <= 2 ? "✅" : "❌"}`,
    );
  }
  const t = e.roundTrip;
  if (t) {
    const ok = t.unchanged === t.records && t.rowsWritten <= ROUND_TRIP_MAX_SHARE * t.firstImportRows;
    out.push(
      `- Products export pushed back unchanged: unchanged_records ${f(t.unchanged)} of ${f(t.records)}, rows_written ${f(t.rowsWritten)} (${f((100 * t.rowsWritten) / t.firstImportRows, 2)} % of a first import's ${f(t.firstImportRows)}; target: all unchanged, ≤ 1 %) ${ok ? "✅" : "❌"}`,
    );
  }
  return out;
}
