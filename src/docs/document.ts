import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { VERSION } from "../version.ts";
import { mapOperations } from "./operations.ts";
import { API_OVERVIEW } from "./overview.ts";
import { disabledQueryExamples } from "./reference-examples.ts";
import { TAGS } from "./tags.ts";

export const OPENAPI_PATH = "/api/v1/openapi.json";

type Document = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/** Generated once per isolate: every route is registered when the app module loads. */
const generated = new WeakMap<OpenAPIHono<AppEnv>, Document>();

/**
 * The OpenAPI 3.1 document, built from the same zod schemas that validate requests. `origin` is
 * the service's own origin (the server URL), so the reference's "try it" calls the deployment
 * that served it.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string): Document {
  let base = generated.get(app);
  if (!base) {
    base = generate(app);
    generated.set(app, base);
  }
  return {
    ...base,
    servers: [{ url: origin, description: "This deployment (the origin that served this document)" }],
  };
}

function generate(app: OpenAPIHono<AppEnv>): Document {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Storefront Catalog, Pricing and Orders API",
      version: VERSION,
      description: API_OVERVIEW,
      contact: { name: "Storefront API maintainers" },
    },
    servers: [],
  });
  const { openapi, info, components, paths, webhooks } = doc;
  return {
    openapi,
    // Proprietary: the API serves one shop and is licensed to no one else. (Set here: the generator's
    // config takes OpenAPI 3.0's license object, which has no `identifier`.)
    info: { ...info, license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } },
    servers: [],
    security: [{ bearerAuth: [] }],
    tags: usedTags(doc),
    paths: disabledQueryExamples(explicitSecurity(paths)),
    components,
    ...(webhooks && Object.keys(webhooks).length > 0 ? { webhooks } : {}),
  };
}

/** Bearer auth is the default; a public operation (no scope) says so with an empty `security`. */
function explicitSecurity(paths: Document["paths"]): Document["paths"] {
  return mapOperations(paths, (operation: { security?: unknown[] }) =>
    operation.security ? operation : { ...operation, security: [] },
  );
}

/** Top-level tags: those the operations use, in the order of TAGS, each with its description. */
function usedTags(doc: Document) {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { tags?: string[] }>)) {
      for (const tag of operation.tags ?? []) used.add(tag);
    }
  }
  const order = Object.keys(TAGS);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  return [...used]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }));
}
