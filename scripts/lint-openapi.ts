/**
 * Lints the OpenAPI document the app serves at /api/v1/openapi.json with Redocly's rules
 * (.redocly.yaml), offline. The app module registers every route at import and needs no bindings
 * for that, so Node builds the very document the Worker serves (same `openApiDocument`).
 *
 *   npm run lint:openapi [-- --out FILE]
 *   (node --experimental-transform-types: src/ uses constructor parameter properties)
 *
 * Exits 1 when the linter reports an error (warnings are printed, not fatal). The linted file is
 * kept when there are problems (or with --out), so the reported line numbers can be looked up.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatProblems, getTotals, lint, loadConfig } from "@redocly/openapi-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { out: { type: "string" } } });

// src/ is type-checked against the Workers types (tsconfig.json); importing it by a computed URL
// keeps this Node-side script's check (tsconfig.node.json, DOM + Node libs) out of it.
const fromSrc = (path: string) => import(new URL(`../src/${path}`, import.meta.url).href);
const { app } = (await fromSrc("app.ts")) as { app: unknown };
const { openApiDocument } = (await fromSrc("docs/document.ts")) as {
  openApiDocument: (app: unknown, origin: string) => { paths?: Record<string, object> };
};

// The served document names the request's own origin as its server; any real-looking origin will do here.
const document = openApiDocument(app, "https://storefront-api.workers.dev");
const tempDir = values.out ? undefined : mkdtempSync(join(tmpdir(), "openapi-lint-"));
const file = tempDir ? join(tempDir, "openapi.json") : resolve(values.out as string);
// Pretty-printed, so the line numbers the linter reports point somewhere readable.
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);

const config = await loadConfig({ configPath: join(root, ".redocly.yaml") });
const problems = await lint({ ref: file, config });
const totals = getTotals(problems);
formatProblems(problems, { format: "codeframe", totals, version: "openapi-core" });

const operations = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
const clean = totals.errors === 0 && totals.warnings === 0;
if (tempDir && clean) rmSync(tempDir, { recursive: true, force: true });
console.log(
  `OpenAPI lint: ${operations} operations, ${totals.errors} errors, ${totals.warnings} warnings` +
    (tempDir && clean ? "" : ` (${file})`),
);
if (totals.errors > 0) process.exitCode = 1;
