import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import "../../src/app.ts"; // registers every route in the route table at import
import { DOCS_PATH, OPENAPI_PATH, SCALAR_SCRIPT_PATH } from "../../src/docs/docs.routes.ts";
import { routeTable } from "../../src/http/route-table.ts";
import { api } from "../support/api.ts";

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  "x-required-scope"?: string;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
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
      .filter((r) => !r.path.startsWith("/images/") && r.path !== DOCS_PATH && r.path !== OPENAPI_PATH);
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
