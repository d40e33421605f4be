import { type ChildProcess, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { createServer } from "node:net";
import { stopProcessGroup, waitUntilServing } from "../../scripts/lib/dev-process.ts";
import { PROJECT_ROOT, WRANGLER_JS } from "./paths.ts";

/** A `wrangler dev` serving the benchmark's own persisted state on a free loopback port. */
export interface DevServer {
  origin: string;
  child: ChildProcess;
  startMs: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `wrangler dev` with the pinned Node (as scripts/lib/wrangler.ts does), in its own process
 * group so that stopping it also stops workerd, and waits until an authenticated request answers.
 * `--log-level warn` leaves out the per-request log lines (errors still reach the log file).
 */
export async function startDevServer(options: {
  persistTo: string;
  /** A wrangler config serving the prebuilt bundle (see bundle.ts). */
  config: string;
  secret: string;
  logFile: string;
  timeoutMs?: number;
}): Promise<DevServer> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const log = openSync(options.logFile, "a");
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      WRANGLER_JS,
      "dev",
      "--config",
      options.config,
      "--log-level",
      "warn",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      options.persistTo,
      "--var",
      "ENVIRONMENT:development",
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: ["ignore", log, log],
      detached: true,
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilServing(child, origin, options.secret, options.timeoutMs ?? 120_000, options.logFile);
  return { origin, child, startMs: Math.round(performance.now() - started) };
}

/** Stops the server this benchmark started (its whole process group). */
export const stopDevServer = (server: DevServer) => stopProcessGroup(server.child);
