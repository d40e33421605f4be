import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (scripts/lib/../..): wrangler runs there so it finds wrangler.toml and .wrangler/. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The project's own wrangler, started with the Node running this script (the pinned Node 22),
 * not through `node_modules/.bin/wrangler`, whose `#!/usr/bin/env node` may find an older Node.
 * `STOREFRONT_WRANGLER_JS` replaces it with another script (the tests' fake wrangler).
 */
export const WRANGLER_JS =
  process.env.STOREFRONT_WRANGLER_JS ||
  join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");

const wranglerEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: "false" });

export class WranglerError extends Error {}

/**
 * Where local D1/R2 state lives for the local commands of this process: wrangler's default
 * (.wrangler/state) unless a script (npm run dev -- --persist-to DIR, the crash test) chose another.
 */
let localState: string | undefined;
export const useLocalState = (dir: string | undefined) => {
  localState = dir;
};
/** `--persist-to DIR` for a local d1 command, when a state directory was chosen. */
export const localStateArgs = (): string[] => (localState ? ["--persist-to", localState] : []);

/**
 * The wrangler.toml environment the d1 commands of this process use (`--env NAME`): unset by
 * default; "" names the top-level (production) environment explicitly, which also keeps wrangler
 * from warning that several environments exist.
 */
let environment: string | undefined;
export const useEnvironment = (name: string | undefined) => {
  environment = name;
};
/** `--env NAME` (or `--env=` for the top level) when an environment was chosen. */
export const environmentArgs = (): string[] =>
  environment === undefined ? [] : environment === "" ? ["--env="] : ["--env", environment];

/**
 * Runs wrangler to completion. stdin is closed so confirmation prompts take their
 * non-interactive default instead of waiting; `quiet` captures the output and shows it only on failure;
 * `cwd` runs it in another checkout of the project (the project root by default).
 */
export function runWrangler(args: string[], options: { quiet?: boolean; cwd?: string } = {}): void {
  const result = spawnSync(process.execPath, [WRANGLER_JS, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: wranglerEnv(),
    stdio: ["ignore", options.quiet ? "pipe" : "inherit", options.quiet ? "pipe" : "inherit"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    if (options.quiet) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    throw new WranglerError(`wrangler ${args.slice(0, 3).join(" ")} failed (exit code ${result.status})`);
  }
}

/** Runs wrangler to completion with its output captured, whatever its exit code (stdin closed). */
export function captureWrangler(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [WRANGLER_JS, ...args], {
    cwd: PROJECT_ROOT,
    env: wranglerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

export interface D1Result<T> {
  results: T[];
  success: boolean;
}

/** `wrangler d1 execute DB --json` with `--command` or `--file`; returns one result per statement. */
export function d1Execute<T = Record<string, unknown>>(
  target: "local" | "remote",
  source: { command: string } | { file: string },
): D1Result<T>[] {
  const args = [
    "d1",
    "execute",
    "DB",
    `--${target}`,
    "--json",
    ...(target === "local" ? localStateArgs() : []),
    ...environmentArgs(),
  ];
  if ("command" in source) args.push("--command", source.command);
  else args.push("--file", source.file);
  const result = captureWrangler(args);
  const parsed = parseJson(result.stdout);
  if (result.status !== 0 || !Array.isArray(parsed)) {
    const text = (parsed as { error?: { text?: string } } | undefined)?.error?.text;
    throw new WranglerError(
      `wrangler d1 execute --${target} failed: ${text ?? (`${result.stderr}\n${result.stdout}`.trim() || `exit code ${result.status}`)}`,
    );
  }
  return parsed as D1Result<T>[];
}

/** Rows of the first statement of `command`. */
export const d1Query = <T = Record<string, unknown>>(target: "local" | "remote", command: string): T[] =>
  d1Execute<T>(target, { command })[0]?.results ?? [];

function parseJson(text: string): unknown {
  // wrangler may print a warning line before the JSON document.
  const start = text.search(/^[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

/** Starts a long-running wrangler command with inherited stdio (for `wrangler dev`). */
export const spawnWrangler = (args: string[]) =>
  spawn(process.execPath, [WRANGLER_JS, ...args], {
    cwd: PROJECT_ROOT,
    env: wranglerEnv(),
    stdio: "inherit",
  });
