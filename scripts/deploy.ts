/**
 * npm run deploy [-- --env staging]
 *
 * Applies the remote migrations the database has not seen yet, then deploys the Worker (wrangler
 * runs the [build] command first, so /docs ships complete). Migrations come first while the
 * running version keeps serving, which is why every migration must be additive (expand/contract,
 * docs/deploy.md). Refuses without a Cloudflare login (saying how to log in, as setup:remote does)
 * and before `npm run setup:remote` has created the D1 database.
 */
import { parseArgs } from "node:util";
import {
  applyRemoteMigrations,
  envFlag,
  exitOnError,
  listD1Databases,
  readTarget,
  report,
  requireLogin,
  UsageError,
} from "./lib/remote.ts";
import { runWrangler, WranglerError } from "./lib/wrangler.ts";

const USAGE = `Usage: npm run deploy [-- --env ENV]

  --env ENV   a wrangler.toml environment (e.g. staging); production when absent

Applies pending remote D1 migrations, then runs wrangler deploy. Run npm run setup:remote once before.`;

function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { env: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals.join(" ")}`);
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
  console.log(`  deploying Worker ${target.worker} (wrangler deploy ${envFlag(target).join(" ")}):\n`);
  runWrangler(["deploy", ...envFlag(target)]);
  report("done", `${target.label} deployed; check it: curl https://<the URL above>/api/v1/health`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  exitOnError(USAGE)(error);
}
