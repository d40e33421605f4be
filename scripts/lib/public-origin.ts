/**
 * The public origin of a deployment: the `PUBLIC_BASE_URL` var every image URL is built on (the
 * Worker never takes it from a request). It lives in wrangler.toml, in the environment's `[vars]`,
 * so every deploy from any machine uses the same one: `npm run setup:remote` records a custom
 * domain there, and the first `npm run deploy` without one records the Worker's workers.dev address.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { UsageError, WRANGLER_CONFIG, type WranglerConfig } from "./remote.ts";

export const ORIGIN_VAR = "PUBLIC_BASE_URL";

/** The origin of an absolute https URL (`https://api.example.com/` → `https://api.example.com`). */
export function httpsOrigin(value: string, what: string): string {
  const url = URL.parse(value.trim());
  if (url?.protocol !== "https:") {
    throw new UsageError(`${what} must be an https URL such as https://api.example.com, got '${value}'.`);
  }
  return url.origin;
}

/** The origin wrangler.toml gives the environment, if any. */
export function configuredOrigin(config: WranglerConfig): string | undefined {
  const value = config.vars[ORIGIN_VAR];
  if (typeof value !== "string" || value === "") return undefined;
  return httpsOrigin(value, `${ORIGIN_VAR} in wrangler.toml`);
}

/** The workers.dev address wrangler printed for the Worker it deployed, if it printed one. */
export function workersDevOrigin(deployOutput: string, worker: string): string | undefined {
  const escaped = worker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return deployOutput.match(
    new RegExp(`https://${escaped}\\.[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.workers\\.dev\\b`),
  )?.[0];
}

/**
 * wrangler.toml's text with `PUBLIC_BASE_URL = "<origin>"` in the environment's vars section ("":
 * the top-level `[vars]`): it replaces an existing entry or the commented example, else ends the
 * section; a missing section is added at the end. Comments and everything else stay as they are.
 */
export function withPublicOrigin(toml: string, env: string, origin: string): string {
  const header = env === "" ? "[vars]" : `[env.${env}.vars]`;
  const entry = `${ORIGIN_VAR} = ${JSON.stringify(origin)}`;
  const lines = toml.split("\n");
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) return `${toml.trimEnd()}\n\n${header}\n${entry}\n`;
  const next = lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
  const end = next < 0 ? lines.length : next;
  const find = (pattern: RegExp) => lines.findIndex((line, i) => i > start && i < end && pattern.test(line));
  const existing = find(new RegExp(`^\\s*${ORIGIN_VAR}\\s*=`));
  const example = find(new RegExp(`^\\s*#\\s*${ORIGIN_VAR}\\s*=`));
  const at = existing >= 0 ? existing : example;
  if (at >= 0) {
    lines[at] = entry;
  } else {
    let last = end;
    while (last > start + 1 && (lines[last - 1] ?? "").trim() === "") last--;
    lines.splice(last, 0, entry);
  }
  return lines.join("\n");
}

/** Records the origin in wrangler.toml for the environment. */
export function recordPublicOrigin(env: string, origin: string) {
  writeFileSync(WRANGLER_CONFIG, withPublicOrigin(readFileSync(WRANGLER_CONFIG, "utf8"), env, origin));
}
