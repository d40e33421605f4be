/**
 * npm run setup:remote [-- --env staging] [--public-origin URL] [--create-key NAME [--key-scopes SCOPES]]
 *
 * Prepares a Cloudflare account for `npm run deploy`: creates what wrangler's automatic
 * provisioning does not (the queues, dead-letter queues included, and the D1 database, which must
 * exist before its migrations), applies the remote migrations, settles the public origin image
 * URLs are built on (a custom domain, recorded in wrangler.toml, or the workers.dev address the
 * first deploy records) and offers to create the first API key. Safe to re-run: each step says what it did, or that it found the thing done and skipped it.
 * R2 buckets are left to the first deploy, which creates those that are missing.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { configuredOrigin, httpsOrigin, recordPublicOrigin } from "./lib/public-origin.ts";
import {
  applyRemoteMigrations,
  ensureD1Database,
  ensureQueue,
  exitOnError,
  listD1Databases,
  readTarget,
  readWranglerConfig,
  report,
  requireLogin,
  type Target,
  UsageError,
} from "./lib/remote.ts";
import { d1Query, PROJECT_ROOT, WranglerError } from "./lib/wrangler.ts";

const ALL_SCOPES = "read,write,admin";

const USAGE = `Usage: npm run setup:remote [-- --env ENV] [--public-origin URL] [--create-key NAME [--key-scopes SCOPES]]

  --env ENV            a wrangler.toml environment (e.g. staging); production when absent
  --public-origin URL  the https origin image URLs are built on (a custom domain routed to the
                       Worker), recorded in wrangler.toml; without it a terminal is asked, and
                       otherwise the first deploy records the workers.dev address
  --create-key NAME    create an API key named NAME unless an active one of that name exists
                       (without it, a terminal is asked whether to create the first key)
  --key-scopes SCOPES  its scopes, comma-separated (default: ${ALL_SCOPES})

Creates the queues and the D1 database named in wrangler.toml when missing, applies the remote
migrations, then prints the new key's secret once. Re-running creates nothing that exists.`;

/** Active keys of the remote database, by name. */
const activeKeyNames = () =>
  new Set(
    d1Query<{ name: string }>("remote", "SELECT name FROM api_keys WHERE revoked_at IS NULL").map(
      (row) => row.name,
    ),
  );

/** `npm run key -- create … --remote`: its secret goes to stdout, once. */
function createKey(target: Target, name: string, scopes: string) {
  const args = ["create", "--name", name, "--scopes", scopes, "--remote"];
  if (target.env !== "") args.push("--env", target.env);
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, "scripts", "key.ts"), ...args], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new WranglerError(`npm run key -- ${args.join(" ")} failed`);
}

async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await terminal.question(question)).trim();
  } finally {
    terminal.close();
  }
}

/**
 * The public origin image URLs are built on: the one given or typed (a custom domain) is recorded
 * in wrangler.toml; without one, the first deploy records the Worker's workers.dev address.
 */
async function originStep(target: Target, given: string | undefined) {
  const recorded = configuredOrigin(readWranglerConfig(target.env));
  const later = "the first npm run deploy records the Worker's workers.dev address";
  let origin = given;
  if (origin === undefined && recorded === undefined && process.stdin.isTTY) {
    const answer = await ask(
      "  Public origin of image URLs: your custom domain (https://api.example.com), or Enter for the workers.dev address: ",
    );
    origin = answer === "" ? undefined : httpsOrigin(answer, "The public origin");
  }
  if (origin !== undefined && origin !== recorded) {
    recordPublicOrigin(target.env, origin);
    report("created", `public origin ${origin}: recorded in wrangler.toml (PUBLIC_BASE_URL); commit it`);
  } else if (recorded !== undefined) {
    report("exists", `public origin ${recorded} (wrangler.toml)`);
  } else {
    report("skipped", `public origin: ${later} (or pass --public-origin https://<your domain>)`);
  }
}

async function askForFirstKey(): Promise<string | undefined> {
  const name = await ask(
    `  No API key yet. Create one with scopes ${ALL_SCOPES} now? Its name [admin], or "n" to skip: `,
  );
  if (/^n(o)?$/i.test(name)) return undefined;
  return name || "admin";
}

async function keyStep(target: Target, requested: string | undefined, scopes: string) {
  const active = activeKeyNames();
  const npmEnv = target.env === "" ? "" : ` --env ${target.env}`;
  if (requested !== undefined) {
    if (active.has(requested)) {
      report(
        "skipped",
        `API key '${requested}': an active key of that name exists (secrets are shown only once)`,
      );
      return;
    }
    createKey(target, requested, scopes);
    report("created", `API key '${requested}' (${scopes}): its secret is printed above, once`);
    return;
  }
  if (active.size > 0) {
    report(
      "skipped",
      `first API key: ${active.size} active key(s) exist (npm run key -- list --remote${npmEnv})`,
    );
    return;
  }
  if (!process.stdin.isTTY) {
    report(
      "skipped",
      `first API key: not asked without a terminal; pass --create-key NAME, or later: npm run key -- create --name NAME --scopes ${ALL_SCOPES} --remote${npmEnv}`,
    );
    return;
  }
  const name = await askForFirstKey();
  if (name === undefined) {
    report("skipped", "first API key: declined");
    return;
  }
  createKey(target, name, ALL_SCOPES);
  report("created", `API key '${name}' (${ALL_SCOPES}): its secret is printed above, once`);
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      env: { type: "string" },
      "public-origin": { type: "string" },
      "create-key": { type: "string" },
      "key-scopes": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals.join(" ")}`);
  if (values["key-scopes"] !== undefined && values["create-key"] === undefined) {
    throw new UsageError("--key-scopes goes with --create-key.");
  }
  const keyName = values["create-key"]?.trim();
  if (keyName === "") throw new UsageError("--create-key needs a name.");
  const scopes = values["key-scopes"] ?? ALL_SCOPES;
  const unknown = scopes.split(",").filter((s) => !ALL_SCOPES.split(",").includes(s.trim()));
  if (unknown.length > 0)
    throw new UsageError(`Unknown scope(s): ${unknown.join(", ")}. Valid: ${ALL_SCOPES}.`);

  const givenOrigin = values["public-origin"];
  const origin = givenOrigin === undefined ? undefined : httpsOrigin(givenOrigin, "--public-origin");
  const target = readTarget(values.env);
  console.log(`Setting up ${target.label} (Worker ${target.worker}) on your Cloudflare account:`);
  requireLogin();
  for (const queue of target.queues) ensureQueue(queue);
  const databases = listD1Databases();
  for (const d1 of target.d1) ensureD1Database(d1.name, databases);
  for (const d1 of target.d1) applyRemoteMigrations(target, d1.binding);
  report("skipped", `R2 buckets ${target.r2.join(", ")}: the first deploy creates those missing`);
  await originStep(target, origin);
  await keyStep(target, keyName, scopes);
  console.log(`\nNext: npm run deploy${target.env === "" ? "" : ` -- --env ${target.env}`}`);
}

main(process.argv.slice(2)).then(() => process.exit(0), exitOnError(USAGE));
