import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import { OPENAPI_FILE } from "../openapi-document.ts";
import { CellError, csvRecordBuilder, type Schemas } from "./csv-record.ts";
import { jsonArrayElements } from "./json-array.ts";

/**
 * One input record, or why it cannot be sent. `position` is its line in the file (JSONL: the
 * line; CSV: the line where the record ends, the header being line 1) or, in a JSON array, its
 * number in the array (from 1).
 */
export type InputRecord =
  | { position: number; record: Record<string, unknown> }
  | { position: number; error: { code: string; message: string } };

export type InputFormat = "jsonl" | "json" | "csv";

export const formatOf = (file: string): InputFormat =>
  /\.csv$/i.test(file) ? "csv" : /\.json$/i.test(file) ? "json" : "jsonl";

/** What `position` counts in this format (the errors file says it). */
export const positionName = (format: InputFormat) => (format === "json" ? "record" : "line");

/** The file's records in order, streamed. `schema` (in openapi.json) types the CSV cells. */
export function readRecords(file: string, format: InputFormat, schema: string): AsyncGenerator<InputRecord> {
  if (format === "csv") return csvRecords(file, schema);
  if (format === "json") return jsonArrayRecords(file);
  return jsonlRecords(file);
}

const asRecord = (position: number, text: string): InputRecord => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { position, error: { code: "INVALID_JSON", message: (error as Error).message } };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { position, error: { code: "NOT_AN_OBJECT", message: "a record must be a JSON object" } };
  return { position, record: value as Record<string, unknown> };
};

async function* jsonlRecords(file: string): AsyncGenerator<InputRecord> {
  const lines = createInterface({
    input: createReadStream(file, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() !== "") yield asRecord(line, text);
  }
}

async function* jsonArrayRecords(file: string): AsyncGenerator<InputRecord> {
  let n = 0;
  for await (const text of jsonArrayElements(createReadStream(file, "utf8"))) yield asRecord(++n, text);
}

async function* csvRecords(file: string, schemaName: string): AsyncGenerator<InputRecord> {
  const schemas: Schemas = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")).components.schemas;
  const parser = createReadStream(file).pipe(parse({ info: true, bom: true, skip_empty_lines: true }));
  let build: ((cells: string[]) => Record<string, unknown>) | undefined;
  for await (const row of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (!build) {
      build = csvRecordBuilder(row.record, schemas[schemaName] ?? {}, schemas);
      continue;
    }
    try {
      yield { position: row.info.lines, record: build(row.record) };
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      yield { position: row.info.lines, error: { code: "INVALID_CSV_CELL", message: error.message } };
    }
  }
}
