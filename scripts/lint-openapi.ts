/**
 * Lints the OpenAPI document the app serves at /api/v1/openapi.json with Redocly's rules
 * (.redocly.yaml), offline. The app module registers every route at import and needs no bindings
 * for that, so Node builds the very document the Worker serves (same `openApiDocument`).
 *
 *   node --experimental-transform-types scripts/lint-openapi.ts [--out FILE]
 *
 * Exits 1 when the linter reports an error (warnings are printed, not fatal).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatProblems, getTotals, lint, loadConfig } from "@redocly/openapi-core";
import { app } from "../src/app.ts";
import { openApiDocument } from "../src/docs/document.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { out: { type: "string" } } });

// The served document names the request's own origin as its server; any real-looking origin will do here.
const document = openApiDocument(app, "https://storefront-api.workers.dev");
const file = values.out
  ? resolve(values.out)
  : join(mkdtempSync(join(tmpdir(), "openapi-lint-")), "openapi.json");
// Pretty-printed, so the line numbers the linter reports point somewhere readable.
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);

const config = await loadConfig({ configPath: join(root, ".redocly.yaml") });
const problems = await lint({ ref: file, config });
const totals = getTotals(problems);
formatProblems(problems, { format: "codeframe", totals, version: "openapi-core" });

const operations = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(
  `OpenAPI lint: ${operations} operations, ${totals.errors} errors, ${totals.warnings} warnings (${file})`,
);
if (totals.errors > 0) process.exitCode = 1;
