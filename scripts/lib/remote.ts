/**
 * What `npm run setup:remote` and `npm run deploy` share: the target environment read from
 * wrangler.toml, the checks and steps they run through wrangler, and how each step reports what it
 * did or why it skipped.
 */
import { join } from "node:path";
import { experimental_readRawConfig, unstable_readConfig } from "wrangler";
import { captureWrangler, PROJECT_ROOT, useEnvironment, WranglerError } from "./wrangler.ts";

export class UsageError extends Error {}

/** The resources one wrangler.toml environment binds, by name. */
export interface Target {
  /** "" for the top level (production), else the `[env.NAME]` section. */
  env: string;
  label: string;
  worker: string;
  d1: { binding: string; name: string }[];
  /** Every queue the Worker produces to or consumes from, dead-letter queues included. */
  queues: string[];
  r2: string[];
}

/**
 * The wrangler.toml these scripts read, and record the public origin in. `STOREFRONT_WRANGLER_CONFIG`
 * names a copy (the tests of the scripts, whose fake wrangler reads the same file).
 */
export const WRANGLER_CONFIG = process.env.STOREFRONT_WRANGLER_CONFIG || join(PROJECT_ROOT, "wrangler.toml");

/** The parts of wrangler's resolved configuration these scripts read (its own types do not resolve). */
export interface WranglerConfig {
  name?: string;
  d1_databases: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[];
  r2_buckets: { binding: string; bucket_name?: string }[];
  queues: {
    producers?: { binding: string; queue: string }[];
    consumers?: {
      queue: string;
      dead_letter_queue?: string;
      max_batch_size?: number;
      max_retries?: number;
      max_concurrency?: number;
    }[];
  };
  ratelimits?: { name: string; namespace_id: string; simple: { limit: number; period: number } }[];
  triggers: { crons?: string[] };
  build: { command?: string };
  vars: Record<string, unknown>;
}

/** wrangler.toml as wrangler resolves it for one environment ("" or absent: the top level). */
export const readWranglerConfig = (env?: string): WranglerConfig =>
  unstable_readConfig({ config: WRANGLER_CONFIG, env: env || undefined }, { hideWarnings: true });

/**
 * Reads the environment's bindings from wrangler.toml and makes every d1 command of this process
 * target it. An unknown name is refused: wrangler would fall back to the top level (production).
 */
export function readTarget(env: string | undefined): Target {
  const name = env ?? "";
  const raw = experimental_readRawConfig({ config: WRANGLER_CONFIG }, { hideWarnings: true }).rawConfig;
  const known = Object.keys(raw.env ?? {});
  if (name !== "" && !known.includes(name)) {
    throw new UsageError(
      `wrangler.toml has no environment '${name}'${known.length > 0 ? ` (it has: ${known.join(", ")})` : ""}.`,
    );
  }
  const config = readWranglerConfig(name);
  const queues = new Set<string>();
  for (const producer of config.queues.producers ?? []) queues.add(producer.queue);
  for (const consumer of config.queues.consumers ?? []) {
    queues.add(consumer.queue);
    if (consumer.dead_letter_queue) queues.add(consumer.dead_letter_queue);
  }
  useEnvironment(name);
  return {
    env: name,
    label: name === "" ? "production" : name,
    worker: config.name ?? "",
    d1: config.d1_databases.map((d) => {
      if (!d.database_name)
        throw new UsageError(`D1 binding ${d.binding} has no database_name in wrangler.toml.`);
      return { binding: d.binding, name: d.database_name };
    }),
    queues: [...queues],
    r2: config.r2_buckets.map((b) => b.bucket_name).filter((n): n is string => typeof n === "string"),
  };
}

/** `--env NAME` for wrangler, or `--env=` for the top level (which also silences its warning). */
export const envFlag = (target: Target) => (target.env === "" ? ["--env="] : ["--env", target.env]);

/** Prints one step's outcome: `  created  queue storefront-jobs-dlq`. */
export function report(outcome: "created" | "exists" | "applied" | "skipped" | "ok" | "done", what: string) {
  console.log(`  ${outcome.padEnd(8)} ${what}`);
}

const output = (r: { stdout: string; stderr: string }) => `${r.stdout}${r.stderr}`.trim();

/** Fails with wrangler's own words when a captured command failed. */
function check(result: { status: number; stdout: string; stderr: string }, what: string) {
  if (result.status !== 0) throw new WranglerError(`${what} failed:\n${output(result)}`);
  return result;
}

/** Refuses to go on without credentials, saying how to get them. */
export function requireLogin() {
  const result = check(captureWrangler(["whoami"]), "wrangler whoami");
  if (/not authenticated/i.test(result.stdout)) {
    throw new WranglerError(
      "Not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID).",
    );
  }
  const who = result.stdout.match(/You are logged in with an? ([^\n]+)/)?.[1]?.replace(/\.$/, "");
  report("ok", `logged in${who ? ` with ${who}` : ""}`);
}

/** The D1 databases of the account, by name. */
export function listD1Databases(): Set<string> {
  const result = check(captureWrangler(["d1", "list", "--json"]), "wrangler d1 list");
  const start = result.stdout.search(/^\[/m);
  const list = JSON.parse(start >= 0 ? result.stdout.slice(start) : "[]") as { name: string }[];
  return new Set(list.map((d) => d.name));
}

/** Creates the queue unless it exists (`queues info` says which). */
export function ensureQueue(name: string) {
  const info = captureWrangler(["queues", "info", name]);
  if (info.status === 0) {
    report("exists", `queue ${name}`);
    return;
  }
  if (!/does not exist/.test(output(info))) check(info, `wrangler queues info ${name}`);
  check(captureWrangler(["queues", "create", name]), `wrangler queues create ${name}`);
  report("created", `queue ${name}`);
}

/** Creates the D1 database unless the account has one of that name. */
export function ensureD1Database(name: string, existing: Set<string>) {
  if (existing.has(name)) {
    report("exists", `D1 database ${name}`);
    return;
  }
  check(captureWrangler(["d1", "create", name]), `wrangler d1 create ${name}`);
  existing.add(name);
  report("created", `D1 database ${name}`);
}

/** Applies the migrations the remote database has not seen yet, naming them. */
export function applyRemoteMigrations(target: Target, binding: string) {
  const result = check(
    captureWrangler(["d1", "migrations", "apply", binding, "--remote", ...envFlag(target)]),
    `wrangler d1 migrations apply ${binding} --remote`,
  );
  if (/No migrations to apply/.test(result.stdout)) {
    report("skipped", `migrations of ${binding}: none pending`);
    return;
  }
  const names = [...new Set(result.stdout.match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [])];
  report("applied", `migrations of ${binding}: ${names.join(", ") || "(see wrangler's output above)"}`);
}

/** Exit code and message for an error that ends a script. */
export function exitOnError(usage: string) {
  return (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      process.exit(2);
    }
    console.error(error instanceof WranglerError ? `\n${error.message}` : error);
    process.exit(1);
  };
}
