/**
 * End to end: the pull CLI against a real `npm run dev` (the demo data, its own state directory,
 * a loopback port, stopped at the end), and its CSV read back by the push CLI.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type DevServer, startWranglerDev, stopProcessGroup } from "../dev-process.ts";
import { PROJECT_ROOT } from "../wrangler.ts";

const KEY = "sfk_local_development_key";
const dir = mkdtempSync(join(tmpdir(), "storefront-pull-"));
let dev: DevServer;

before(async () => {
  dev = await startWranglerDev({
    viaDevScript: true,
    persistTo: join(dir, "state"),
    secret: KEY,
    logFile: join(dir, "dev.log"),
    timeoutMs: 180_000,
  });
});

after(async () => {
  if (dev) await stopProcessGroup(dev.child);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one of the CLIs (`pull` or `push`); resolves to its exit code and output. */
function cli(
  script: "pull" | "push",
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, "scripts", `${script}.ts`), ...args, "--base-url", dev.origin],
      { cwd: dir, env: { ...process.env, STOREFRONT_API_KEY: KEY }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

for (const kind of ["products", "variants"] as const) {
  test(`a ${kind} CSV pulled, pushed back unchanged and pulled again is the same file`, async () => {
    const filters = ["--filter", "product_ids=1,2,3", "--filter", "product_ids=4", "--format", "csv"];
    const first = await cli("pull", ["--kind", kind, ...filters, "--out", `${kind}-1.csv`]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /done/);
    const before = readFileSync(join(dir, `${kind}-1.csv`), "utf8");
    const rows = before.split("\r\n").filter((l) => l !== "");
    assert.ok(rows.length > 4, `${rows.length} rows`);
    const pushed = await cli("push", [`${kind}-1.csv`, "--kind", kind, "--match-by", "id"]);
    assert.equal(pushed.code, 0, pushed.stderr + pushed.stdout);
    const again = await cli("pull", ["--kind", kind, ...filters, "--out", `${kind}-2.csv`]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(readFileSync(join(dir, `${kind}-2.csv`), "utf8"), before);
  });
}

test("a JSONL pull writes <kind>.jsonl by default; bad arguments and filters exit 2", async () => {
  const pulled = await cli("pull", ["--kind", "products", "--filter", "internal_ids=PRD-000001"]);
  assert.equal(pulled.code, 0, pulled.stderr);
  const lines = readFileSync(join(dir, "products.jsonl"), "utf8").trim().split("\n");
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).internal_id),
    ["PRD-000001"],
  );
  const usage = await cli("pull", ["--kind", "brands"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--kind must be one of products, variants/);
  const refused = await cli("pull", ["--kind", "products", "--filter", "colour=red"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /400/);
});

test("pull --changes prints the entries after a cursor and the cursor to continue from", async () => {
  const start = await cli("pull", ["--changes"]);
  assert.equal(start.code, 0, start.stderr);
  const cursor = /next cursor: (\S+)/.exec(start.stderr)?.[1];
  assert.ok(cursor, start.stderr);
  const created = await fetch(`${dev.origin}/api/v1/brands`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Pulled brand", translations: {} }),
  });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: number };
  const changes = await cli("pull", ["--changes", "--after", cursor, "--resources", "brands"]);
  assert.equal(changes.code, 0, changes.stderr);
  const entries = changes.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    entries.map((e) => `${e.resource}:${e.id}:${e.change}`),
    [`brands:${id}:upserted`],
  );
  const misuse = await cli("pull", ["--changes", "--kind", "products"]);
  assert.equal(misuse.code, 2);
  assert.match(misuse.stderr, /--changes does not take --kind/);
});
