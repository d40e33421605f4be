/**
 * npm run dev [-- <wrangler dev options>]
 *
 * Applies pending local migrations, loads the demo seed when the local database is empty, then
 * serves the API on http://localhost:8787 with `wrangler dev` (local D1, R2 and Queues), and plays
 * the cron triggers locally (wrangler dev does not run them): the job liveness sweep every 20 s,
 * retention hourly. So a job interrupted by a crash of the dev server finishes by itself after a
 * restart. `--persist-to DIR` keeps the local state in DIR instead of .wrangler/state.
 * `--no-edge-cache` answers every read without the edge cache (docs/edge-cache.md), which is on by
 * default, as deployed.
 */
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { prepareLocalDb } from "./lib/local-db.ts";
import { spawnWrangler, useLocalState, WranglerError } from "./lib/wrangler.ts";

/** Seconds without progress before a local job is re-driven (the deployed default is 300). */
const LOCAL_STALL_SECONDS = 30;
const SWEEP_EVERY_MS = 20_000;
const HOUR_MS = 3_600_000;

const option = (argv: string[], name: string): string | undefined => {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const arg = argv[i] as string;
  return arg.includes("=") ? arg.slice(name.length + 1) : argv[i + 1];
};

async function main(given: string[]) {
  const argv = given.filter((a) => a !== "--no-edge-cache");
  useLocalState(option(argv, "--persist-to"));
  await prepareLocalDb();
  const port = option(argv, "--port") ?? "8787";
  const args = [
    "dev",
    "--var",
    "ENVIRONMENT:development",
    "--var",
    `JOB_STALL_SECONDS:${LOCAL_STALL_SECONDS}`,
    ...(argv.length < given.length ? ["--var", "EDGE_CACHE:off"] : []),
    "--test-scheduled",
    ...argv,
  ];
  if (option(argv, "--port") === undefined) args.push("--port", port);
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
  void playCronTriggers(`http://127.0.0.1:${port}`);
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
