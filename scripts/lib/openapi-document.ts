/**
 * The OpenAPI document as committed in openapi.json, built in Node. The app module registers every
 * route at import and needs no bindings for that, so this is the very document the Worker serves
 * (same `openApiDocument`), but for its server: served, it names the origin that served it; the file
 * names any deployment, through a variable whose default is `npm run dev`'s origin. Nothing else
 * differs (test/http/openapi-file.test.ts).
 * (Run with node --experimental-transform-types: src/ uses constructor parameter properties.)
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const OPENAPI_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "openapi.json");

const ANY_SERVER = {
  url: "{origin}",
  description: "A deployment of the service",
  variables: {
    origin: {
      default: "http://localhost:8787",
      description: "The deployment's origin (default: `npm run dev`).",
    },
  },
};

// src/ is type-checked against the Workers types (tsconfig.json); importing it by a computed URL
// keeps this Node-side script's check (tsconfig.node.json, DOM + Node libs) out of it.
const fromSrc = (path: string) => import(new URL(`../../src/${path}`, import.meta.url).href);

/** The document's text as openapi.json holds it: pretty-printed, so diffs and lint line numbers read well. */
export async function openApiDocumentText(): Promise<string> {
  const { app } = (await fromSrc("app.ts")) as { app: unknown };
  const { openApiDocument } = (await fromSrc("docs/document.ts")) as {
    openApiDocument: (app: unknown, origin: string) => object;
  };
  const document = { ...openApiDocument(app, ANY_SERVER.variables.origin.default), servers: [ANY_SERVER] };
  return `${JSON.stringify(document, null, 2)}\n`;
}
