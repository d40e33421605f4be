import type { RouteMeta } from "../../../src/http/route-table.ts";
import { api } from "../../support/api.ts";

/** The served OpenAPI document, read for parameter names, value tokens and body schemas of each operation. */

export type Schema = Record<string, any>;

export interface OpenApi {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

export async function openApi(): Promise<OpenApi> {
  const res = await api("/api/v1/openapi.json", { key: null });
  return res.json as OpenApi;
}

export const operationOf = (doc: OpenApi, route: RouteMeta) =>
  doc.paths[route.path]?.[route.method.toLowerCase()] as Record<string, any> | undefined;

export function resolve(doc: OpenApi, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    s = doc.components.schemas[s.$ref.split("/").pop() as string] ?? {};
  }
  return s;
}

/** Every string a schema mentions (enum values, property names, examples), to build plausible values. */
function harvest(doc: OpenApi, schema: Schema | undefined, out: Set<string>, depth = 0, seen = new Set()) {
  if (!schema || depth > 6) return;
  const s = resolve(doc, schema);
  if (seen.has(s)) return;
  seen.add(s);
  for (const v of s.enum ?? []) if (typeof v === "string") out.add(v);
  if (typeof s.example === "string") out.add(s.example);
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    out.add(name);
    harvest(doc, prop, out, depth + 1, seen);
  }
  for (const key of ["items", "additionalProperties"]) {
    if (s[key] && typeof s[key] === "object") harvest(doc, s[key], out, depth + 1, seen);
  }
  for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    harvest(doc, part, out, depth + 1, seen);
  }
}

export interface QueryParam {
  name: string;
  /** Tokens of the parameter's own schema (enum values, examples). */
  own: string[];
  /** Names the answer mentions (field and include names, enum values). */
  tokens: string[];
  required: boolean;
}

/** Query parameters of an operation with plausible value tokens (enums, examples, field names). */
export function queryParams(doc: OpenApi, route: RouteMeta): QueryParam[] {
  const op = operationOf(doc, route);
  if (!op) return [];
  const responseTokens = new Set<string>();
  for (const response of Object.values<any>(op.responses ?? {})) {
    harvest(doc, response?.content?.["application/json"]?.schema, responseTokens);
  }
  return (op.parameters ?? [])
    .filter((p: any) => p.in === "query")
    .map((p: any) => {
      const own = new Set<string>();
      harvest(doc, p.schema, own);
      if (typeof p.example === "string") own.add(p.example);
      // Optional parameters carry their example beside the schema (src/docs/reference-examples.ts).
      for (const e of Object.values<any>(p.examples ?? {}))
        if (typeof e?.value === "string") own.add(e.value);
      return {
        name: p.name as string,
        own: [...own],
        tokens: [...own, ...responseTokens],
        required: p.required === true,
      };
    });
}
