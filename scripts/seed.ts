/**
 * npm run seed [-- --reset] [-- --scale N]
 *
 * Loads the deterministic demo seed, with the two well-known local API keys, into the LOCAL D1
 * database of `wrangler dev`. Never remote: those keys must not reach a deployed database.
 */
import { parseArgs } from "node:util";
import { applyLocalMigrations, loadLocalSeed, nonEmptyTables, printLocalKeys } from "./lib/local-db.ts";
import { WranglerError } from "./lib/wrangler.ts";

const USAGE = `Usage: npm run seed [-- [--reset] [--scale N]]

Loads the demo seed into the local D1 database (.wrangler/state), after applying pending migrations.

  --reset      empty every table first and reload the seed from scratch
  --scale N    multiply every row count by N (default 1, the demo)
  -h, --help   show this help

The seed creates the well-known keys sfk_local_development_key (read, write, admin) and
sfk_local_readonly_key (read), so it only ever targets the local database.`;

async function main(argv: string[]): Promise<number> {
  if (argv.some((a) => a === "--remote" || a.startsWith("--remote=") || a === "--preview")) {
    console.error(
      "Refusing --remote: the demo seed creates well-known API keys and must never reach a deployed database.\n" +
        "It only loads the local database of `wrangler dev`. Create keys for a deployment with: npm run key -- create --remote ...",
    );
    return 2;
  }
  let values: { reset?: boolean; scale?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        reset: { type: "boolean" },
        scale: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (!Number.isFinite(scale) || scale <= 0) {
    console.error(`--scale must be a positive number, got '${values.scale}'.\n\n${USAGE}`);
    return 2;
  }

  applyLocalMigrations({ quiet: true });
  if (!values.reset) {
    const filled = nonEmptyTables();
    if (filled.length > 0) {
      console.log(
        `The local database already has data (${filled.join(", ")}); nothing loaded.\nReload it from scratch with: npm run seed -- --reset`,
      );
      return 0;
    }
  }
  const { statements, ms } = await loadLocalSeed({ scale, reset: values.reset });
  console.log(
    `${values.reset ? "Emptied every table and loaded" : "Loaded"} the demo seed (scale ${scale}, ${statements} statements) in ${ms} ms.`,
  );
  printLocalKeys();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof WranglerError ? error.message : error);
    process.exit(1);
  },
);
