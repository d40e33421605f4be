import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import "../../src/app.ts"; // registers every route in the route table at import
import { selectableFields, sortValues } from "../../src/conventions/query-schema.ts";
import { DOCS_PATH, OPENAPI_PATH, SCALAR_SCRIPT_PATH } from "../../src/docs/docs.routes.ts";
import { routeTable } from "../../src/http/route-table.ts";
import { RESOURCES } from "../../src/resources/index.ts";
import { BULK_OPERATIONS } from "../../src/resources/job-operations.ts";
import { api } from "../support/api.ts";

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; schema: any }[];
  tags?: string[];
  security?: Record<string, string[]>[];
  "x-required-scope"?: string;
  responses: Record<
    string,
    { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: any }> }
  >;
}

let doc: any;
const operations: { path: string; method: string; op: Operation }[] = [];

beforeAll(async () => {
  const res = await api(OPENAPI_PATH, { key: null });
  expect(res.status).toBe(200);
  doc = res.json;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(item)) operations.push({ path, method, op });
  }
});

/** A schema, following a `$ref` into `components.schemas` (also as the first part of an `allOf`). */
function resolveSchema(schema: { $ref?: string; allOf?: { $ref?: string }[] }): any {
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  return ref ? doc.components.schemas[ref.replace("#/components/schemas/", "")] : schema;
}

/** A response object, following a `$ref` into `components.responses`. */
function resolveResponse(response: Operation["responses"][string]) {
  if (!response.$ref) return response;
  const name = response.$ref.replace("#/components/responses/", "");
  return doc.components.responses[name];
}

describe("OpenAPI document", () => {
  it("is served without auth as OpenAPI 3.1 JSON naming this origin as its server", async () => {
    const res = await api(OPENAPI_PATH, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(doc.servers).toEqual([expect.objectContaining({ url: "https://api.test" })]);
  });

  it("lists every route of the route table with its method", () => {
    const documented = routeTable
      .all()
      // `/` only redirects to the reference; images and the reference are not API operations.
      .filter((r) => !r.path.startsWith("/images/") && ![DOCS_PATH, OPENAPI_PATH, "/"].includes(r.path));
    expect(documented.length).toBeGreaterThan(0);
    const missing = documented
      .filter((r) => !doc.paths[r.path]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it("gives every operation a unique operationId, a summary and declared, described tags", () => {
    const declared = new Map<string, string | undefined>(
      (doc.tags as { name: string; description?: string }[]).map((t) => [t.name, t.description]),
    );
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(declared.get(tag), `${where}: tag ${tag}`).toBeTruthy();
    }
  });

  it("gives every operation problem-JSON error responses (4xx and 500)", () => {
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const errors = Object.keys(op.responses).filter((status) => /^[45]/.test(status));
      expect(
        errors.some((s) => s.startsWith("4")),
        where,
      ).toBe(true);
      expect(errors, where).toContain("500");
      for (const status of errors) {
        const response = resolveResponse(op.responses[status] as Operation["responses"][string]);
        expect(response?.content?.["application/problem+json"]?.schema, `${where} ${status}`).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
    }
  });

  it("declares the Problem schema and the bearer security scheme as components", () => {
    expect(doc.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(["type", "title", "status", "detail", "code", "request_id"]),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("declares bearerAuth and the scope on secured operations, and an empty security on public ones", () => {
    for (const route of routeTable.all()) {
      const op: Operation | undefined = doc.paths[route.path]?.[route.method.toLowerCase()];
      if (!op) continue;
      const where = `${route.method} ${route.path}`;
      if (route.scope) {
        expect(op.security, where).toEqual([{ bearerAuth: [] }]);
        expect(op["x-required-scope"], where).toBe(route.scope);
      } else {
        expect(op.security, where).toEqual([]);
      }
    }
  });
});

describe("OpenAPI document precise enough to generate a client from", () => {
  const param = (path: string, method: string, name: string, place = "query") =>
    operations
      .find((o) => o.path === path && o.method === method)
      ?.op.parameters?.find((p) => p.name === name && p.in === place);

  it("describes every operation, and gives the API a contact and a licence", () => {
    for (const { path, method, op } of operations) {
      expect(op.description, `${method.toUpperCase()} ${path}`).toBeTruthy();
    }
    expect(doc.info.contact.name).toBeTruthy();
    expect(doc.info.license).toEqual(expect.objectContaining({ name: expect.any(String) }));
  });

  it("lists each resource's includes, fields and sorts as enums, from its declaration", () => {
    for (const { resource } of RESOURCES) {
      const list = `/api/v1${resource.path}`;
      const enumOf = (name: string) => param(list, "get", name)?.schema;
      expect(enumOf("sort")?.enum, list).toEqual(sortValues(resource));
      if (resource.includes) {
        expect(enumOf("includes")?.items?.enum, list).toEqual(Object.keys(resource.includes));
        expect(param(list, "get", "includes"), list).toMatchObject({ style: "form", explode: false });
      }
      if (resource.selectable !== false) {
        expect(enumOf("fields")?.items?.enum, list).toEqual(selectableFields(resource));
      }
    }
  });

  it("requires each resource's fixed fields in its item schema", () => {
    for (const { resource } of RESOURCES) {
      const list = operations.find((o) => o.path === `/api/v1${resource.path}` && o.method === "get");
      const schema = resolveSchema(
        list?.op.responses["200"]?.content?.["application/json"]?.schema.properties.data.items,
      );
      const fixed = Object.entries(resource.fields)
        .filter(([, field]) => field.kind === "fixed")
        .map(([name]) => name);
      expect(fixed.length, resource.name).toBeGreaterThan(0);
      expect(schema.required, resource.name).toEqual(expect.arrayContaining(fixed));
    }
  });

  it("declares the headers each operation takes and each answer carries", () => {
    const headerNames = (response: Operation["responses"][string]) => Object.keys(response.headers ?? {});
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(param(path, method, "x-d1-bookmark", "header"), where).toBeTruthy();
      if (method === "get") expect(param(path, method, "if-none-match", "header"), where).toBeTruthy();
      if (method === "post") expect(param(path, method, "idempotency-key", "header"), where).toBeTruthy();
      for (const [status, response] of Object.entries(op.responses)) {
        if (!status.startsWith("2")) continue;
        const names = headerNames(response);
        expect(names, `${where} ${status}`).toEqual(
          expect.arrayContaining(["X-Request-Id", "Server-Timing", "x-d1-bookmark"]),
        );
        if (method === "get") expect(names, `${where} ${status}`).toContain("ETag");
        if (method === "post") expect(names, `${where} ${status}`).toContain("Idempotency-Replayed");
        const creates = status === "201" || (status === "202" && !path.endsWith("/cancel"));
        if (creates) expect(names, `${where} ${status}`).toContain("Location");
      }
      if (method === "get") expect(op.responses["304"], where).toBeTruthy();
    }
    expect(headerNames(resolveResponse({ $ref: "#/components/responses/TooManyRequests" }))).toContain(
      "Retry-After",
    );
  });

  it("gives every bulk body an example that its record and options schemas accept", () => {
    for (const op of Object.values(BULK_OPERATIONS)) {
      for (const route of op.routes) {
        const body = operations.find((o) => o.path === route.path && o.method === "post")?.op as
          | (Operation & { requestBody: { content: Record<string, { schema: { example?: any } }> } })
          | undefined;
        const example = body?.requestBody.content["application/json"]?.schema.example;
        expect(example, route.path).toEqual(op.bodyExample);
      }
      const records = op.bodyExample[op.itemsKey] as unknown[];
      expect(records.length, op.type).toBeGreaterThan(0);
      for (const record of records) expect(op.record.safeParse(record).error, op.type).toBeUndefined();
      if (op.options) expect(op.options.strict().safeParse(op.bodyExample.options).error).toBeUndefined();
    }
  });
});

describe("interactive reference", () => {
  it("answers /docs with HTML, without auth, loading Scalar from this service", async () => {
    const res = await api(DOCS_PATH, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.text).toContain(`<script src="${SCALAR_SCRIPT_PATH}"></script>`);
    expect(res.text).toContain(`data-url="${OPENAPI_PATH}"`);
    expect(res.text).not.toMatch(/https:\/\/cdn/i);
    expect(res.text).not.toMatch(/<script[^>]+src="(https?:)?\/\//i);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("answers HEAD /docs and refuses other methods with 405", async () => {
    expect((await api(DOCS_PATH, { key: null, method: "HEAD" })).status).toBe(200);
    const post = await api(DOCS_PATH, { key: null, method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });

  it("has Scalar's bundle among the static assets", async () => {
    // The Worker's own fetch skips the assets layer, so ask the ASSETS binding directly.
    const res = await env.ASSETS?.fetch(`https://api.test${SCALAR_SCRIPT_PATH}`);
    expect(res?.status, "run `node scripts/prepare-assets.mjs` (the pretest hook)").toBe(200);
    expect(res?.headers.get("content-type")).toMatch(/javascript/);
    const body = (await res?.text()) ?? "";
    expect(body).toContain("@scalar/api-reference");
    expect(body).not.toContain("sourceMappingURL");
  });
});
