/**
 * npm run deploy [-- --env staging] [--public-origin https://api.example.com]
 *
 * Applies the remote migrations the database has not seen yet, then deploys the Worker (wrangler
 * runs the [build] command first, so /docs ships complete). Migrations come first while the
 * running version keeps serving, which is why every migration must be additive (expand/contract,
docs/deploy.md). Refuses without a Cloudflare login (saying how to log in, as setup:remote does)
 * and before `npm run setup:remote` has created the D1 database.
 *
 * Every deploy says which public origin image URLs are built on (`PUBLIC_BASE_URL`): the one
 * wrangler.toml records, or `--public-origin` (then recorded). With none, the Worker's workers.dev
 * address: wrangler names it only when it deploys, so that first deploy is followed by a second
 * one with the address, which is recorded too so that later deploys need one (docs/public-origin.md).
 */
import { parseArgs } from "node:util";
import {
  configuredOrigin,
  httpsOrigin,
  ORIGIN_VAR,
  recordPublicOrigin,
  workersDevOrigin,
} from "./lib/public-origin.ts";
import {
  applyRemoteMigrations,
  envFlag,
  exitOnError,
  listD1Databases,
  readTarget,
  readWranglerConfig,
  report,
  requireLogin,
  type Target,
  UsageError,
} from "./lib/remote.ts";
import { captureWrangler, WranglerError } from "./lib/wrangler.ts";

const USAGE = `Usage: npm run deploy [-- --env ENV] [--public-origin URL]

  --env ENV             a wrangler.toml environment (e.g. staging); production when absent
  --public-origin URL   the https origin image URLs are built on (a custom domain); recorded in
                        wrangler.toml. Default: the one wrangler.toml records, else the Worker's
                        workers.dev address (then recorded)

Applies pending remote D1 migrations, then runs wrangler deploy. Run npm run setup:remote once before.`;

/** wrangler deploy, its output shown; the output is returned for the workers.dev address in it. */
function deployWorker(target: Target, origin: string | undefined): string {
  const args = ["deploy", ...envFlag(target), ...(origin ? ["--var", `${ORIGIN_VAR}:${origin}`] : [])];
  console.log(`  deploying Worker ${target.worker} (wrangler ${args.join(" ")}):\n`);
  const result = captureWrangler(args);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) throw new WranglerError(`wrangler deploy failed (exit code ${result.status})`);
  return result.stdout;
}

/**
 * Deploys with the origin wrangler.toml records; without one, deploys, reads the workers.dev
 * address wrangler printed and deploys again with it. Returns the origin and where it came from.
 */
function deployWithOrigin(target: Target, given: string | undefined): { origin: string; from: string } {
  const recorded = configuredOrigin(readWranglerConfig(target.env));
  if (given !== undefined && given !== recorded) {
    recordPublicOrigin(target.env, given);
    deployWorker(target, given);
    return { origin: given, from: "--public-origin, now recorded in wrangler.toml: commit it" };
  }
  if (recorded !== undefined) {
    deployWorker(target, recorded);
    return { origin: recorded, from: "wrangler.toml" };
  }
  // No origin yet: the version deployed until the second deploy answers root-relative image URLs.
  const output = deployWorker(target, undefined);
  const origin = workersDevOrigin(output, target.worker);
  if (origin === undefined) {
    throw new WranglerError(
      `wrangler printed no workers.dev address for ${target.worker} (workers_dev = false?), and wrangler.toml records no ${ORIGIN_VAR}: the deployed Worker answers root-relative image URLs. Run again with --public-origin https://<your domain>.`,
    );
  }
  recordPublicOrigin(target.env, origin);
  deployWorker(target, origin);
  return { origin, from: "the workers.dev address, now recorded in wrangler.toml: commit it" };
}

function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      env: { type: "string" },
      "public-origin": { type: "string" },
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
  const given = values["public-origin"];
  const origin = given === undefined ? undefined : httpsOrigin(given, "--public-origin");
  const target = readTarget(values.env);
  const setup = `npm run setup:remote${target.env === "" ? "" : ` -- --env ${target.env}`}`;
  console.log(`Deploying ${target.label} (Worker ${target.worker}):`);
  requireLogin();
  const databases = listD1Databases();
  const missing = target.d1.filter((d) => !databases.has(d.name));
  if (missing.length > 0) {
    throw new WranglerError(
      `D1 database ${missing.map((d) => d.name).join(", ")} does not exist yet: run ${setup} first.`,
    );
  }
  for (const d1 of target.d1) applyRemoteMigrations(target, d1.binding);
  const deployed = deployWithOrigin(target, origin);
  report("done", `${target.label} deployed; public origin ${deployed.origin} (${deployed.from})`);
  report("ok", `check it: curl ${deployed.origin}/api/v1/health (its public_origin is ${deployed.origin})`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  exitOnError(USAGE)(error);
}
