import { type ChildProcess, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
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
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`wrangler dev exited (${child.exitCode}); see ${options.logFile}`);
    try {
      const res = await fetch(`${origin}/api/v1/store`, {
        headers: { authorization: `Bearer ${options.secret}` },
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      if (res.status === 200) return { origin, child, startMs: Math.round(performance.now() - started) };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stopDevServer({ origin, child, startMs: 0 });
  throw new Error(
    `wrangler dev did not answer within ${options.timeoutMs ?? 120_000} ms; see ${options.logFile}`,
  );
}

/** SIGTERM to the process group this benchmark started, then SIGKILL if it lingers. */
export async function stopDevServer(server: DevServer) {
  const pid = server.child.pid;
  if (pid === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const done = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!done) {
    signal("SIGKILL");
    await Promise.race([exited, sleep(5_000)]);
  }
}
