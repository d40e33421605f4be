/**
 * A `wrangler dev` that a script starts and that exits before it serves fails with the lines it
 * logged, so that the cause reads in the output of a run whose files are gone (CI).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startWranglerDev } from "./dev-process.ts";

const dir = mkdtempSync(join(tmpdir(), "storefront-dev-process-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a wrangler dev that exits at start fails with the last lines of its log", async () => {
  const config = join(dir, "wrangler.toml");
  writeFileSync(
    config,
    [
      'name = "broken"',
      `main = "${join(dir, "missing-entry.js")}"`,
      'compatibility_date = "2026-10-01"',
      "",
    ].join("\n"),
  );
  const logFile = join(dir, "dev.log");
  // An earlier start's lines in the same (appended) log are not this start's.
  writeFileSync(logFile, "line of an earlier start\n");
  await assert.rejects(
    startWranglerDev({ persistTo: join(dir, "state"), config, secret: "none", logFile, timeoutMs: 60_000 }),
    (error: Error) => {
      assert.match(error.message, /^wrangler dev exited \(1\); see .*dev\.log; its last lines:\n/);
      assert.match(error.message, /missing-entry\.js/);
      assert.doesNotMatch(error.message, /earlier start/);
      return true;
    },
  );
});
