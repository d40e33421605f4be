import { OPENAPI_PATH } from "./document.ts";

export const DOCS_PATH = "/docs";
/** Scalar's standalone bundle, copied into `public/` by scripts/prepare-assets.mjs, served as a static asset. */
export const SCALAR_SCRIPT_PATH = "/docs/scalar.js";

/**
 * Scalar options (its HTML API reads them from `data-configuration`). Everything that would make
 * the page call Scalar's services is off: default fonts (fonts.scalar.com), telemetry, the AI
 * agent, MCP and the developer tools (registry upload). No `proxyUrl` is set, so "try it" calls
 * this service directly (same origin) and never through proxy.scalar.com.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  persistAuth: false,
  authentication: { preferredSecurityScheme: "bearerAuth" },
  documentDownloadType: "json",
  defaultOpenFirstTag: true,
  operationTitleSource: "summary",
  metaData: { title: "Storefront API reference" },
};

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Storefront API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>The interactive reference needs JavaScript. The OpenAPI document is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
    <script id="api-reference" data-url="${OPENAPI_PATH}" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="${SCALAR_SCRIPT_PATH}"></script>
  </body>
</html>
`;

/** Only this origin: the bundle, the document and "try it" requests; Scalar injects its styles inline. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
