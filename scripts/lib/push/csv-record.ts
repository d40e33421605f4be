/**
 * A CSV row as a record: dotted headers build nested objects (`translations.es-ES.name`), numeric
 * segments index arrays (`variants.0.sku`), and each cell takes the type openapi.json gives that
 * field: integer/number → a number, boolean → `true`/`false`, array or object → the cell is JSON
 * (`[4,2]`), anything else a string as written. An empty cell leaves the field out; `null` sends
 * null where the field allows it.
 */
export type JsonSchema = {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

export type Schemas = Record<string, JsonSchema>;

/** A cell (or a column name) that cannot become a field of the record. */
export class CellError extends Error {
  constructor(column: string, message: string) {
    super(`${column}: ${message}`);
  }
}

/** Builds the records of a CSV file whose header row is `headers`, typed by the record schema. */
export function csvRecordBuilder(headers: string[], record: JsonSchema, schemas: Schemas) {
  const columns = headers.map((header) => {
    const path = header.split(".");
    if (path.some((s) => s === "")) throw new CellError(header, "an empty segment in the column name");
    return { header, path, types: typesAt(record, path, schemas) };
  });
  return (cells: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    columns.forEach(({ header, path, types }, i) => {
      const cell = cells[i] ?? "";
      if (cell === "") return;
      setPath(out, path, convert(header, cell, types));
    });
    return out;
  };
}

function convert(column: string, cell: string, types: string[]): unknown {
  if (cell === "null" && types.includes("null")) return null;
  if (types.includes("integer") || types.includes("number")) {
    const n = Number(cell);
    if (cell.trim() === "" || !Number.isFinite(n)) throw new CellError(column, `"${cell}" is not a number`);
    return n;
  }
  if (types.includes("boolean")) {
    if (cell === "true" || cell === "false") return cell === "true";
    throw new CellError(column, `"${cell}" is not true or false`);
  }
  if (types.includes("array") || types.includes("object")) {
    try {
      return JSON.parse(cell);
    } catch {
      throw new CellError(column, "an array or object cell must be JSON, e.g. [4,2]");
    }
  }
  return cell;
}

function setPath(target: Record<string, unknown> | unknown[], path: string[], value: unknown) {
  let node: Record<string, unknown> | unknown[] = target;
  path.forEach((segment, i) => {
    const last = i === path.length - 1;
    const nextIsIndex = /^\d+$/.test(path[i + 1] ?? "");
    const key = Array.isArray(node) ? Number(segment) : segment;
    const slot = node as Record<string | number, unknown>;
    if (last) {
      slot[key] = value;
      return;
    }
    if (typeof slot[key] !== "object" || slot[key] === null) slot[key] = nextIsIndex ? [] : {};
    node = slot[key] as Record<string, unknown> | unknown[];
  });
}

/** The JSON types the schema allows at a dotted path; `[]` (a string) where it says nothing. */
function typesAt(schema: JsonSchema | undefined, path: string[], schemas: Schemas): string[] {
  let node = resolve(schema, schemas);
  for (const segment of path) {
    if (!node) return [];
    const types = typesOf(node);
    if (types.includes("array") && /^\d+$/.test(segment)) node = resolve(node.items, schemas);
    else {
      const additional =
        typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
      node = resolve(node.properties?.[segment] ?? additional, schemas);
    }
  }
  return node ? typesOf(node) : [];
}

function resolve(schema: JsonSchema | undefined, schemas: Schemas): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return resolve(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas);
  const variants = schema.allOf ?? schema.anyOf ?? schema.oneOf;
  if (variants) {
    const merged: JsonSchema = {};
    for (const v of variants) {
      const r = resolve(v, schemas);
      if (!r) continue;
      merged.type = [...typesOf(merged), ...typesOf(r)];
      merged.properties = { ...merged.properties, ...r.properties };
      merged.items ??= r.items;
      merged.additionalProperties ??= r.additionalProperties;
    }
    return merged;
  }
  return schema;
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
