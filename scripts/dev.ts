/**
 * npm run dev [-- --port N] [--persist-to DIR] [<wrangler dev options>]
 * npm run dev -- --help
 *
 * Applies pending local migrations, loads the demo seed when the local database is empty, then
 * serves the API on http://localhost:8787 (or `--port`) with `wrangler dev` (local D1, R2 and
 * Queues; that address is the Worker's `PUBLIC_BASE_URL`, which image URLs are built on), and plays
 * the cron triggers locally (wrangler dev does not run them): the job liveness sweep every 20 s,
 * retention hourly. So a job interrupted by a crash of the dev server finishes by itself after a
 * restart. `--persist-to DIR` keeps the local state in DIR instead of .wrangler/state.
 * `--no-edge-cache` answers every read without the edge cache (docs/edge-cache.md), which is on by
 * default, as deployed.
 */
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { devServerArgs, option } from "./lib/dev-args.ts";
import { prepareLocalDb } from "./lib/local-db.ts";
import { spawnWrangler, useLocalState, WranglerError } from "./lib/wrangler.ts";

const SWEEP_EVERY_MS = 20_000;
const HOUR_MS = 3_600_000;

const USAGE = `Usage: npm run dev [-- --port N] [--persist-to DIR] [--no-edge-cache] [<other wrangler dev options>]

  --port N          serve on port N (default 8787)
  --persist-to DIR  keep the local D1, R2 and Queues state in DIR (default .wrangler/state)
  --no-edge-cache   answer every read from D1 (EDGE_CACHE=off; docs/edge-cache.md)
  --help, -h        print this text and exit (nothing is migrated, seeded or started)

Applies pending local migrations, loads the demo seed when the local database is empty, then
serves the API with wrangler dev and plays the cron triggers (liveness sweep every 20 s, hourly tasks).
Other options go to wrangler dev unchanged.`;

async function main(argv: string[]) {
  if (argv.some((a) => a === "--help" || a === "-h")) {
    console.log(USAGE);
    return;
  }
  useLocalState(option(argv, "--persist-to"));
  await prepareLocalDb();
  const { args, port, origin } = devServerArgs(argv);
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
  console.log(`Image URLs are built on ${origin} (PUBLIC_BASE_URL).`);
  void playCronTriggers(`${new URL(origin).protocol}//127.0.0.1:${port}`);
}

/**
 * The deployed cron triggers, played against the local server through wrangler's
 * `--test-scheduled` endpoint: the minutely liveness sweep every 20 s (local jobs are small and a
 * developer waits for them), the hourly tasks once an hour. Silent unless a run fails.
 */
async function playCronTriggers(origin: string) {
  let lastHourly = 0;
  for (;;) {
    await sleep(SWEEP_EVERY_MS);
    const hourly = Date.now() - lastHourly >= HOUR_MS;
    for (const cron of hourly ? ["* * * * *", "0 * * * *"] : ["* * * * *"]) {
      try {
        const res = await fetch(`${origin}/__scheduled?cron=${encodeURIComponent(cron)}`, {
          signal: AbortSignal.timeout(60_000),
        });
        await res.arrayBuffer();
        if (res.ok && cron === "0 * * * *") lastHourly = Date.now();
        if (!res.ok) console.error(`Local cron '${cron}' answered ${res.status}`);
      } catch {
        // The server is starting or restarting: the next round tries again.
      }
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof WranglerError ? error.message : error);
  process.exit(1);
});
