import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");

test("client/src/schema.d.ts is what `npm run client:generate` writes from the committed openapi.json", () => {
  const dir = mkdtempSync(join(tmpdir(), "storefront-client-schema-"));
  try {
    const fresh = join(dir, "schema.d.ts");
    execFileSync(
      process.execPath,
      [CLI, join(ROOT, "openapi.json"), "--default-non-nullable", "false", "--output", fresh],
      {
        cwd: ROOT,
        stdio: "pipe",
      },
    );
    const committed = readFileSync(join(ROOT, "client", "src", "schema.d.ts"), "utf8");
    assert.ok(
      committed === readFileSync(fresh, "utf8"),
      "client/src/schema.d.ts is stale: run `npm run client:generate` and commit it",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
