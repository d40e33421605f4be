/**
 * CSV lines of export records, as the push CLI reads them back (scripts/lib/push/csv-record.ts):
 * one column per dotted path, numbers and booleans as text, arrays and objects as JSON cells, null
 * and absent values as empty cells (an empty cell leaves the field as it is when pushed back).
 * Cells holding a comma, a quote, a line break or edge spaces are quoted (RFC 4180).
 */
export const csvLine = (cells: readonly string[]) => `${cells.map(quote).join(",")}\r\n`;

export function csvCells(columns: readonly string[], record: Record<string, unknown>): string[] {
  return pathsOf(columns).map((path) => cell(valueAt(record, path)));
}

const paths = new WeakMap<readonly string[], string[][]>();

/** The columns' segments, split once per column list (a row of a variants file has 91 cells). */
function pathsOf(columns: readonly string[]): string[][] {
  let split = paths.get(columns);
  if (!split) {
    split = columns.map((c) => c.split("."));
    paths.set(columns, split);
  }
  return split;
}

function valueAt(record: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = record;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

const quote = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
