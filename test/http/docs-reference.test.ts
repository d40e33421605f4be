import { beforeAll, describe, expect, it } from "vitest";
import { DOCS_PATH, OPENAPI_PATH } from "../../src/docs/docs.routes.ts";
import { api, send } from "../support/api.ts";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown; "x-disabled"?: boolean }>;
  schema?: { example?: unknown; examples?: unknown[]; default?: unknown; enum?: unknown[] };
}

let doc: any;

beforeAll(async () => {
  doc = (await api(OPENAPI_PATH, { key: null })).json;
});

/**
 * What Scalar's "Test Request" sends for a parameter before the user types anything: the first of
 * the parameter's `examples` unless marked `x-disabled`, else its `example`, else the schema's
 * `default`, first `enum` value, `examples` or `example` (@scalar/workspace-store, getExample and
 * isParamDisabled).
 */
function prefilled(parameter: Parameter): unknown {
  const first = Object.values(parameter.examples ?? {})[0];
  if (first) return first["x-disabled"] === true ? undefined : first.value;
  const schema = parameter.schema ?? {};
  return parameter.example ?? schema.default ?? schema.enum?.[0] ?? schema.examples?.[0] ?? schema.example;
}

describe("the interactive reference", () => {
  it("is where GET / leads", async () => {
    const res = await send(new Request("https://api.test/", { redirect: "manual" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(DOCS_PATH);
  });

  it("sends no optional query parameter that the user did not fill in (List products answers products)", () => {
    const sent: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of (operation.parameters ?? []) as Parameter[]) {
          if (parameter.in === "query" && !parameter.required && prefilled(parameter) !== undefined)
            sent.push(`${method.toUpperCase()} ${path} ${parameter.name}`);
        }
      }
    }
    expect(sent).toEqual([]);
  });

  it("still shows the examples of the list filters", () => {
    const brandIds = (doc.paths["/api/v1/products"].get.parameters as Parameter[]).find(
      (p) => p.name === "brand_ids",
    );
    expect(brandIds?.examples?.example).toEqual({ value: "1,2", "x-disabled": true });
  });
});

describe("the stock fields in the OpenAPI document", () => {
  it("describe warehouse_stock where bulk jobs write it and available_stock where reads return it", () => {
    const { schemas } = doc.components;
    for (const record of ["VariantBulkRecord", "ProductBulkVariant"]) {
      expect(schemas[record].properties.warehouse_stock.description, record).toMatch(/available_stock/);
      expect(schemas[record].properties.supplier_stock.description, record).toMatch(/available_stock/);
    }
    const variant = schemas.Variant.properties;
    expect(variant.available_stock.description).toMatch(/warehouse_stock.*supplier_stock/);
    expect(variant.warehouse_stock.description).toMatch(/available_stock/);
  });
});
