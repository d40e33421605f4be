import type { RowsReadProbe } from "./cost-stage.ts";
import type { Results } from "./results.ts";

const int = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : Math.round(n).toLocaleString("en-US");
const f1 = (n: number) => n.toFixed(1);

const cell = (p: RowsReadProbe | undefined) =>
  p ? `${int(p.rowsRead)} (${int(p.items)} items${p.status === 200 ? "" : `, status ${p.status}`})` : "–";

/** The rows read per read scenario at both catalog sizes, and the bytes of a product, an order and a job log. */
export function costSection(r: Results): string[] {
  const cost = r.cost;
  if (!cost) return ["Not measured."];
  const lines: string[] = [];
  if (cost.rowsRead.length > 0) {
    lines.push(
      `D1 rows read per request (Server-Timing \`d1-rows\`: the sum of \`meta.rows_read\` of the request's D1 results, what D1 bills), at scale ${cost.scale} and at scale ${cost.compareScale ?? "–"} (a catalog of its own, served by its own \`wrangler dev\`; each scenario requested 3 times, the last answer's figure; ids picked from each catalog). An unfiltered list's total is read from the \`row_counts\` row its table's triggers keep, so its rows read must not grow with the catalog.`,
      "",
      `| read scenario | rows read at scale ${cost.scale} (items) | rows read at scale ${cost.compareScale ?? "–"} (items) | growth of rows read per item |`,
      "| --- | ---: | ---: | ---: |",
    );
    for (const row of cost.rowsRead) {
      // Per item returned: the two catalogs' pages can hold different numbers of items.
      const perItem = (p: RowsReadProbe | undefined) =>
        p?.rowsRead != null && p.items > 0 ? p.rowsRead / p.items : null;
      const a = perItem(row.main);
      const b = perItem(row.compare);
      const growth = a !== null && b !== null && b > 0 ? `${(a / b).toFixed(2)}×` : "–";
      lines.push(`| ${row.key} | ${cell(row.main)} | ${cell(row.compare)} | ${growth} |`);
    }
  }
  const s = cost.storage;
  if (s) {
    lines.push(
      "",
      `Storage at scale ${cost.scale} (SQLite \`dbstat\`, whole pages of ${int(s.pageSize)} bytes, each table with its indexes; file ${f1(s.fileBytes / 2 ** 20)} MiB):`,
      "",
      `- **${int(s.bytesPerProduct)} bytes per product** (${int(s.products)} products; per product ${f1(s.variantsPerProduct)} variants, ${f1(s.translationsPerProduct)} product and variant translations, ${f1(s.pricesPerProduct)} market prices, with images and category links): ${int(10e9 / s.bytesPerProduct)} products in D1's 10 GB.`,
      `- **${int(s.bytesPerOrder)} bytes per order** (${int(s.orders)} orders, ${f1(s.lineItemsPerOrder)} line items each): ${int(10e9 / s.bytesPerOrder)} orders in 10 GB.`,
      `- **${int(s.bytesPerJobLog)} bytes per job log** (a record's error entry, with the table's four indexes): ${int(10e9 / s.bytesPerJobLog)} logs in 10 GB.`,
      "",
      "| table (with indexes) | rows | MiB | bytes per row |",
      "| --- | ---: | ---: | ---: |",
      ...Object.entries(s.tables)
        .filter(([, t]) => t.bytes >= 1 << 20)
        .map(
          ([name, t]) =>
            `| ${name} | ${int(t.rows)} | ${f1(t.bytes / 2 ** 20)} | ${t.rows > 0 ? int(t.bytes / t.rows) : "–"} |`,
        ),
    );
  }
  return lines;
}
