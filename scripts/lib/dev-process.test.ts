/**
 * A `wrangler dev` that a script starts and that exits before it serves fails with the lines it
 * logged, so that the cause reads in the output of a run whose files are gone (CI); one whose
 * chosen port another process bound first starts again on other ports.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { freePort, logTail, startWranglerDev, stopProcessGroup } from "./dev-process.ts";

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

test("a port chosen for wrangler dev and bound by another process first is chosen again", async () => {
  const worker = join(dir, "answers.js");
  writeFileSync(worker, 'export default { fetch: () => new Response("ok") };\n');
  const config = join(dir, "answers.toml");
  writeFileSync(
    config,
    ['name = "answers"', `main = "${worker}"`, 'compatibility_date = "2026-10-01"', ""].join("\n"),
  );
  const taken = createServer();
  const takenPort = await freePort();
  await new Promise<void>((resolve) => taken.listen(takenPort, "127.0.0.1", resolve));
  const handedOut: number[] = [];
  const pickPort = async () => {
    const port = handedOut.length === 0 ? takenPort : await freePort();
    handedOut.push(port);
    return port;
  };
  try {
    const dev = await startWranglerDev({
      persistTo: join(dir, "state-answers"),
      config,
      secret: "none",
      logFile: join(dir, "answers.log"),
      pickPort,
      timeoutMs: 60_000,
    });
    try {
      assert.notEqual(new URL(dev.origin).port, String(takenPort));
      assert.equal(await (await fetch(dev.origin)).text(), "ok");
      assert.equal(handedOut.length, 4, "two ports for the failed start, two for the second");
    } finally {
      await stopProcessGroup(dev.child);
    }
  } finally {
    taken.close();
  }
});

test("freePort chooses a port below the kernel's ephemeral range, which outgoing connections use", async () => {
  for (let i = 0; i < 20; i++) assert.ok((await freePort()) < 32_768);
});

test("a failure's log lines keep its error lines when a crash dump fills the tail", () => {
  const dump = Array.from({ length: 40 }, (_, i) => `goroutine ${i} [chan send]:`);
  const tail = logTail(
    ["starting", "✘ [ERROR] Address already in use (127.0.0.1:20001).", ...dump].join("\n"),
  );
  assert.match(tail, /Address already in use/);
  assert.match(tail, /goroutine 39 /);
  assert.doesNotMatch(tail, /starting|goroutine 0 /);
});
