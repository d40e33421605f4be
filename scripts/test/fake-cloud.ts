/**
 * Fake Cloudflare accounts for the tests of the remote scripts: each a temporary folder the fake
 * wrangler (fake-wrangler.ts) keeps its state in, with a copy of wrangler.toml the scripts read and
 * record the public origin in (the project's own file is never written).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { readWranglerConfig } from "../lib/remote.ts";
import { PROJECT_ROOT } from "../lib/wrangler.ts";
import { emptyAccount, type FakeAccount } from "./fake-account.ts";

const FAKE = join(PROJECT_ROOT, "scripts", "test", "fake-wrangler.ts");
const MIGRATIONS = readFileSync(join(PROJECT_ROOT, "migrations", "meta", "_journal.json"), "utf8");
export const migrationCount = (JSON.parse(MIGRATIONS) as { entries: unknown[] }).entries.length;

export const production = readWranglerConfig();
export const staging = readWranglerConfig("staging");
const CONFIGS = JSON.stringify({ "": production, staging });

const accounts: string[] = [];
after(() => {
  for (const dir of accounts) rmSync(dir, { recursive: true, force: true });
});

/** A fresh fake account, optionally with some state already in it. */
export function account(initial: Partial<FakeAccount> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "fake-cloudflare-"));
  accounts.push(dir);
  writeFileSync(join(dir, "state.json"), JSON.stringify({ ...emptyAccount(), ...initial }));
  const tomlPath = join(dir, "wrangler.toml");
  copyFileSync(join(PROJECT_ROOT, "wrangler.toml"), tomlPath);
  const state = (): FakeAccount => JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  /** Runs `node scripts/<script> ...args` against this account, stdin not a terminal. */
  const run = (script: string, ...args: string[]) => {
    const before = state().calls.length;
    const result = spawnSync(process.execPath, [join(PROJECT_ROOT, "scripts", script), ...args], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        STOREFRONT_WRANGLER_JS: FAKE,
        STOREFRONT_WRANGLER_CONFIG: tomlPath,
        FAKE_WRANGLER_DIR: dir,
        FAKE_WRANGLER_CONFIG: CONFIGS,
        NODE_OPTIONS: "--disable-warning=ExperimentalWarning",
      },
      input: "",
      encoding: "utf8",
    });
    return {
      status: result.status,
      stdout: result.stdout,
      output: `${result.stdout}${result.stderr}`,
      /** The wrangler calls this run made. */
      calls: state().calls.slice(before),
    };
  };
  /** This account's copy of wrangler.toml, as the scripts left it. */
  const toml = () => readFileSync(tomlPath, "utf8");
  return { state, run, toml };
}

export const queueNames = (config: typeof production) => [
  ...new Set(
    (config.queues.consumers ?? []).flatMap((c) => [
      c.queue,
      ...(c.dead_letter_queue ? [c.dead_letter_queue] : []),
    ]),
  ),
];
