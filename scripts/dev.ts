/**
 * npm run dev [-- <wrangler dev options>]
 *
 * Applies pending local migrations, loads the demo seed when the local database is empty, then
 * serves the API on http://localhost:8787 with `wrangler dev` (local D1, R2 and Queues).
 */
import { constants } from "node:os";
import { prepareLocalDb } from "./lib/local-db.ts";
import { spawnWrangler, WranglerError } from "./lib/wrangler.ts";

async function main(argv: string[]) {
  await prepareLocalDb();
  const args = ["dev", "--var", "ENVIRONMENT:development", ...argv];
  if (!argv.some((a) => a === "--port" || a.startsWith("--port="))) args.push("--port", "8787");
  const child = spawnWrangler(args);
  // Ctrl-C reaches wrangler through the terminal's process group too; forwarding also covers a
  // signal sent to this process alone (kill <pid>, a process manager).
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1)));
  child.on("error", (error) => {
    console.error(`Could not start wrangler dev: ${error.message}`);
    process.exit(1);
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof WranglerError ? error.message : error);
  process.exit(1);
});
