/**
 * Lints the OpenAPI document the app serves at /api/v1/openapi.json (as `npm run openapi` writes it
 * to openapi.json) with Redocly's `recommended` rules (.redocly.yaml) and Spectral's `spectral:oas`
 * ruleset, offline.
 *
 *   npm run lint:openapi [-- --out FILE]
 *
 * Exits 1 when either linter reports an error or a warning. The linted file is kept when there are
 * problems (or with --out), so the reported line numbers can be looked up.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatProblems, getTotals, lint, loadConfig } from "@redocly/openapi-core";
// CommonJS packages: their named exports are reached through the default import.
import spectralCore, { type RulesetDefinition } from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import spectralRulesets from "@stoplight/spectral-rulesets";
import { openApiDocumentText } from "./lib/openapi-document.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { out: { type: "string" } } });

const text = await openApiDocumentText();
const tempDir = values.out ? undefined : mkdtempSync(join(tmpdir(), "openapi-lint-"));
const file = tempDir ? join(tempDir, "openapi.json") : resolve(values.out as string);
writeFileSync(file, text);

const config = await loadConfig({ configPath: join(root, ".redocly.yaml") });
const problems = await lint({ ref: file, config });
const redocly = getTotals(problems);
formatProblems(problems, { format: "codeframe", totals: redocly, version: "openapi-core" });

const spectral = new spectralCore.Spectral();
// The ruleset's inferred type is narrower than RulesetDefinition in places TypeScript cannot match
// (the CLI's `extends: spectral:oas` takes it as is); the recommended rules, as the CLI runs them.
spectral.setRuleset({ extends: [[spectralRulesets.oas as RulesetDefinition, "recommended"]] });
const results = await spectral.run(new spectralCore.Document(text, spectralParsers.Json, file));
// Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
const spectralErrors = results.filter((r) => r.severity === 0).length;
const spectralWarnings = results.filter((r) => r.severity === 1).length;
for (const r of results) {
  const where = `${file}:${r.range.start.line + 1}:${r.range.start.character + 1}`;
  console.log(`${where} ${["error", "warning", "info", "hint"][r.severity]} ${r.code}: ${r.message}`);
}

const document = JSON.parse(text) as { paths?: Record<string, object> };
const operations = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
const clean = redocly.errors + redocly.warnings + spectralErrors + spectralWarnings === 0;
if (tempDir && clean) rmSync(tempDir, { recursive: true, force: true });
console.log(
  `OpenAPI lint: ${operations} operations; Redocly ${redocly.errors} errors, ${redocly.warnings} warnings; ` +
    `Spectral ${spectralErrors} errors, ${spectralWarnings} warnings${tempDir && clean ? "" : ` (${file})`}`,
);
if (!clean) process.exitCode = 1;
