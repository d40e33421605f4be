/**
 * End to end: the push CLI against a real `npm run dev` (its own state directory, a loopback port,
 * its own process group, stopped at the end). The part size is lowered so a small file makes
 * several jobs.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createStorefrontClient, type StorefrontClient } from "../../../client/src/index.ts";
import { type DevServer, startWranglerDev, stopProcessGroup } from "../dev-process.ts";
import { PROJECT_ROOT } from "../wrangler.ts";

const KEY = "sfk_local_development_key";
const dir = mkdtempSync(join(tmpdir(), "storefront-push-"));
const run = Date.now().toString(36).toUpperCase();
let dev: DevServer;
let client: StorefrontClient;

before(async () => {
  dev = await startWranglerDev({
    viaDevScript: true,
    persistTo: join(dir, "state"),
    secret: KEY,
    logFile: join(dir, "dev.log"),
    timeoutMs: 180_000,
  });
  client = createStorefrontClient({ baseUrl: dev.origin, apiKey: KEY });
});

after(async () => {
  if (dev) await stopProcessGroup(dev.child);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run push`'s script; resolves to its exit code and output. */
function pushCli(
  args: string[],
  started: (child: ChildProcess) => void = () => {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, "scripts", "push.ts"), ...args, "--base-url", dev.origin],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, STOREFRONT_API_KEY: KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    started(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const product = (id: string, extra: Record<string, unknown> = {}) => ({
  internal_id: id,
  translations: { "es-ES": { name: `Producto ${id}` } },
  variants: [
    { sku: `sku-${id}`, prices: { market_es: { list_price: { amount: "9.99", currency: "EUR" } } } },
  ],
  ...extra,
});

const writeJsonl = (name: string, lines: unknown[]) => {
  const file = join(dir, name);
  writeFileSync(file, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return file;
};

async function productsByInternalId(ids: string[]) {
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < ids.length; i += 100) {
    const query = { internal_ids: ids.slice(i, i + 100).join(","), per_page: 100 };
    const pages = client.paginate("/api/v1/products", {
      params: {
        query: {
          ...query,
          includes: ["variants"],
          locales: "es-ES,en-GB",
          fields: ["internal_id", "category_ids", "name", "status"],
        },
      },
    });
    for await (const p of pages) found.set(String(p.internal_id), p);
  }
  return found;
}

async function jobCount(): Promise<number> {
  const { data } = await client.api.GET("/api/v1/jobs", { params: { query: { per_page: 1 } } });
  return data?.pagination.total ?? -1;
}

test("a JSONL file of new products becomes several jobs, exits 0, and a re-run creates no job", async () => {
  const ids = Array.from({ length: 300 }, (_, i) => `PUSH-${run}-${i}`);
  const file = writeJsonl(
    "new.jsonl",
    ids.map((id) => product(id)),
  );
  const first = await pushCli([
    file,
    "--kind",
    "products",
    "--match-by",
    "internal_id",
    "--max-part-bytes",
    "20000",
  ]);
  assert.equal(first.code, 0, first.stderr + first.stdout);
  const jobsAfterFirst = await jobCount();
  const newParts = first.stdout.split("\n").filter((l) => /^\d+\s/.test(l));
  assert.ok(newParts.length >= 3, first.stdout);
  assert.ok(
    newParts.every((l) => / new /.test(l) && / done$/.test(l)),
    first.stdout,
  );
  const found = await productsByInternalId(ids);
  assert.equal(found.size, ids.length);

  const again = await pushCli([
    file,
    "--kind",
    "products",
    "--match-by",
    "internal_id",
    "--max-part-bytes",
    "20000",
  ]);
  assert.equal(again.code, 0, again.stderr + again.stdout);
  const replayedParts = again.stdout.split("\n").filter((l) => /^\d+\s/.test(l));
  assert.equal(replayedParts.length, newParts.length);
  assert.ok(
    replayedParts.every((l) => / re-attached /.test(l)),
    again.stdout,
  );
  assert.equal(await jobCount(), jobsAfterFirst);
});

test("a push killed midway, run again, re-attaches to the jobs it made and submits only the rest", async () => {
  const ids = Array.from({ length: 600 }, (_, i) => `PUSH-${run}-resume-${i}`);
  const file = writeJsonl(
    "resume.jsonl",
    ids.map((id) => product(id)),
  );
  const args = [file, "--kind", "products", "--match-by", "internal_id", "--max-part-bytes", "8000"];
  const before = await jobCount();
  let cli: ChildProcess | undefined;
  const interrupted = pushCli(args, (child) => {
    cli = child;
  });
  const deadline = Date.now() + 30_000;
  while ((await jobCount()) === before && Date.now() < deadline) await sleep(20);
  cli?.kill("SIGKILL");
  await interrupted;
  await sleep(1000); // a POST the kill cut off may still be accepted by the server
  const madeBeforeKill = (await jobCount()) - before;
  assert.ok(madeBeforeKill >= 1);

  const resumed = await pushCli(args);
  assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
  const rows = resumed.stdout.split("\n").filter((l) => /^\d+\s/.test(l));
  assert.ok(rows.length > madeBeforeKill, resumed.stdout);
  assert.equal(rows.filter((l) => / re-attached /.test(l)).length, madeBeforeKill, resumed.stdout);
  assert.equal((await jobCount()) - before, rows.length);
  assert.equal((await productsByInternalId(ids)).size, ids.length);
});

test("invalid records exit 1 with one errors.jsonl line per invalid record, at its input line", async () => {
  const id = (i: number) => `PUSH-${run}-bad-${i}`;
  const lines: unknown[] = Array.from({ length: 40 }, (_, i) => product(id(i)));
  lines[3] = { internal_id: id(3), variants: [{ sku: `sku-${id(3)}` }] }; // a new product without a name
  lines[17] = product(id(17), { status: "sold-out" });
  lines[25] = "{not json";
  lines[33] = { variants: [] }; // no identifier at all
  const file = writeJsonl("bad.jsonl", lines);
  const result = await pushCli([
    file,
    "--kind",
    "products",
    "--match-by",
    "internal_id",
    "--max-part-bytes",
    "4000",
  ]);
  assert.equal(result.code, 1, result.stderr + result.stdout);
  const errors = readFileSync(`${file}.errors.jsonl`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    errors.map((e) => e.line).sort((a, b) => a - b),
    [4, 18, 26, 34],
  );
  for (const e of errors)
    assert.ok(typeof e.code === "string" && typeof e.message === "string", JSON.stringify(e));
  const byLine = new Map(errors.map((e) => [e.line, e]));
  assert.deepEqual(byLine.get(4)?.identifiers, { product: { internal_id: id(3) } });
  assert.equal(byLine.get(26)?.code, "INVALID_JSON");
  assert.equal((await productsByInternalId([id(0), id(39)])).size, 2);
});

test("a --dry-run push changes nothing", async () => {
  const ids = Array.from({ length: 30 }, (_, i) => `PUSH-${run}-dry-${i}`);
  const file = writeJsonl(
    "dry.jsonl",
    ids.map((id) => product(id)),
  );
  const result = await pushCli([file, "--kind", "products", "--match-by", "internal_id", "--dry-run"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  assert.match(result.stdout, /Dry run/);
  assert.equal((await productsByInternalId(ids)).size, 0);
});

test("price-list-prices and link-identifiers files push through their own routes", async () => {
  const id = `PUSH-${run}-kinds`;
  const ean = `84${Date.now()}`.slice(0, 13);
  const setup = writeJsonl("kinds-products.jsonl", [
    product(id, { variants: [{ internal_id: `${id}-v`, sku: `sku-${id}`, ean }] }),
  ]);
  assert.equal((await pushCli([setup, "--kind", "products", "--match-by", "internal_id"])).code, 0);

  const prices = writeJsonl("kinds-prices.jsonl", [
    { variant_internal_id: `${id}-v`, price: { amount: "7.25", currency_code: "EUR" }, minimum_quantity: 2 },
  ]);
  const priced = await pushCli([
    prices,
    "--kind",
    "price-list-prices",
    "--price-list",
    "1",
    "--match-by",
    "variant_internal_id",
  ]);
  assert.equal(priced.code, 0, priced.stderr + priced.stdout);
  const { data: listed } = await client.api.GET("/api/v1/price-lists/{id}/variant-prices", {
    params: { path: { id: 1 }, query: { variant_internal_ids: `${id}-v` } },
  });
  assert.deepEqual(
    listed?.data.map((p) => [p.variant_internal_id, p.price?.amount, p.min_quantity]),
    [[`${id}-v`, "7.25", 2]],
  );

  const links = writeJsonl("kinds-links.jsonl", [{ ean, variant_internal_id: `${id}-linked` }]);
  const linked = await pushCli([links, "--kind", "link-identifiers"]);
  assert.equal(linked.code, 0, linked.stderr + linked.stdout);
  const productId = Number((await productsByInternalId([id])).get(id)?.id);
  const { data: variants } = await client.api.GET("/api/v1/products/{product_id}/variants", {
    params: { path: { product_id: productId } },
  });
  assert.deepEqual(
    variants?.data.map((v) => v.internal_id),
    [`${id}-linked`],
  );
});

test("a CSV file with dotted headers builds nested, typed records", async () => {
  const id = `PUSH-${run}-csv`;
  const file = join(dir, "products.csv");
  writeFileSync(
    file,
    [
      "internal_id,status,category_ids,translations.es-ES.name,translations.en-GB.name,variants.0.sku,variants.0.warehouse_stock,variants.0.prices.market_es.list_price.amount,variants.0.prices.market_es.list_price.currency",
      `${id}-1,unpublished,"[4,2]","Camiseta, azul",Blue T-shirt,${id}-1-s,7,19.90,EUR`,
      `${id}-2,published,[3],Pantalón,,${id}-2-s,0,5,EUR`,
    ].join("\n"),
  );
  const result = await pushCli([file, "--kind", "products", "--match-by", "internal_id"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const found = await productsByInternalId([`${id}-1`, `${id}-2`]);
  const one = found.get(`${id}-1`);
  assert.deepEqual(one?.category_ids, [4, 2]);
  assert.deepEqual(one?.translations, {
    "es-ES": { name: "Camiseta, azul" },
    "en-GB": { name: "Blue T-shirt" },
  });
  const variants = one?.variants as { sku: string; warehouse_stock: number }[];
  assert.equal(variants[0]?.sku, `${id}-1-s`);
  const two = found.get(`${id}-2`);
  assert.deepEqual(two?.category_ids, [3]);
  assert.equal(one?.status, "unpublished");
  assert.deepEqual(two?.translations, { "es-ES": { name: "Pantalón" }, "en-GB": { name: null } });
});

test("a JSON array file names its failed records by their number in the array", async () => {
  const id = (i: number) => `PUSH-${run}-array-${i}`;
  const records = [product(id(0)), product(id(1), { status: "gone" }), product(id(2))];
  const file = join(dir, "array.json");
  writeFileSync(file, JSON.stringify(records, null, 2));
  const result = await pushCli([file, "--kind", "products", "--match-by", "internal_id"]);
  assert.equal(result.code, 1, result.stderr + result.stdout);
  const errors = readFileSync(`${file}.errors.jsonl`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    errors.map((e) => [e.record, e.code, e.affected_fields]),
    [[2, "INVALID_FIELD_VALUE", ["status"]]],
  );
});

test("usage and authentication errors exit 2", async () => {
  const file = writeJsonl("one.jsonl", [product(`PUSH-${run}-auth`)]);
  assert.equal((await pushCli([file, "--kind", "products"])).code, 2);
  assert.equal((await pushCli([file, "--kind", "nope", "--match-by", "id"])).code, 2);
  const denied = await new Promise<number | null>((resolve) => {
    spawn(
      process.execPath,
      [
        join(PROJECT_ROOT, "scripts", "push.ts"),
        file,
        "--kind",
        "products",
        "--match-by",
        "id",
        "--base-url",
        dev.origin,
      ],
      { env: { ...process.env, STOREFRONT_API_KEY: "sfk_not_a_key" }, stdio: "ignore" },
    ).on("close", resolve);
  });
  assert.equal(denied, 2);
});
