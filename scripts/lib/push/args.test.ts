/** The push CLI's command line and environment (no server). */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../wrangler.ts";
import { parsePushArgs } from "./args.ts";

const command = ["stock.csv", "--kind", "variants", "--match-by", "sku_supplier"];
const key = { STOREFRONT_API_KEY: "sfk_test" };

test("--help prints the usage on stdout and exits 0, with no key and no file", () => {
  for (const flag of ["--help", "-h"]) {
    const { STOREFRONT_API_KEY: _, ...env } = process.env;
    const result = spawnSync(process.execPath, [join(PROJECT_ROOT, "scripts", "push.ts"), flag], {
      cwd: PROJECT_ROOT,
      env,
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Usage: npm run push -- <file> --kind/);
    assert.doesNotMatch(result.stderr, /Unknown option/);
  }
});

test("the service's origin is --base-url, else STOREFRONT_BASE_URL (as the client example reads it), else port 8787", () => {
  const url = (argv: string[], env: NodeJS.ProcessEnv) => parsePushArgs(argv, { ...key, ...env }).baseUrl;
  assert.equal(url(command, {}), "http://localhost:8787");
  assert.equal(url(command, { STOREFRONT_BASE_URL: "https://api.example.com/" }), "https://api.example.com");
  assert.equal(
    url([...command, "--base-url", "http://127.0.0.1:9000"], {
      STOREFRONT_BASE_URL: "https://api.example.com",
    }),
    "http://127.0.0.1:9000",
  );
});
