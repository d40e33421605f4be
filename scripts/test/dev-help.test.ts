/** `npm run dev -- --help` answers before touching any state. Runs in Node (`node --test`). */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { PROJECT_ROOT } from "../lib/wrangler.ts";

const dir = mkdtempSync(join(tmpdir(), "storefront-dev-help-"));
after(() => rmSync(dir, { recursive: true, force: true }));

it("prints its options (--port among them) and exits 0 without migrating, seeding or starting wrangler", () => {
  const state = join(dir, "state");
  for (const flag of ["--help", "-h"]) {
    const result = spawnSync(
      process.execPath,
      [join(PROJECT_ROOT, "scripts", "dev.ts"), "--persist-to", state, flag],
      // A wrangler that cannot start: the help must not need one.
      {
        cwd: PROJECT_ROOT,
        encoding: "utf8",
        env: { ...process.env, STOREFRONT_WRANGLER_JS: "/nonexistent" },
      },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Usage: npm run dev/);
    assert.match(result.stdout, /--port N/);
    assert.equal(existsSync(state), false, "no local state was created");
  }
});
