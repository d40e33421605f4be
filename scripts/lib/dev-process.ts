import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stripVTControlCharacters } from "node:util";
import { PROJECT_ROOT, WRANGLER_JS } from "./wrangler.ts";

/** A `wrangler dev` a script started: the benchmark's and the soak run's. */
export interface DevServer {
  origin: string;
  child: ChildProcess;
  startMs: number;
}

/**
 * Below Linux's default ephemeral range (32768-60999): the kernel hands ports from that range to
 * every outgoing connection and every `listen(0)` (workerd's own internal sockets among them), so a
 * port found free there can be taken in the seconds before wrangler binds it (the dev script first
 * migrates and seeds). Ports here are only taken by someone who asks for one by number.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 } as const;

/** A loopback port, outside the ephemeral range, that nothing listens on right now. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * Starts `wrangler dev` on a loopback port (a free one unless given) with the pinned Node (as
 * wrangler.ts does), over its own `--persist-to` state (never the developer's .wrangler/state), in
 * its own process group so that stopping it also stops workerd, and waits until an authenticated
 * request answers. `viaDevScript` starts it the way a developer does, through `npm run dev`'s
 * script (migrations, demo seed, local cron triggers). `--log-level warn` leaves out the
 * per-request log lines (errors still reach the log file).
 */
export async function startWranglerDev(options: StartOptions): Promise<DevServer> {
  // Ports the caller chose are kept (a restart must come back on the same origin); ports chosen
  // here are chosen again when another process bound one first.
  const pickPort = options.pickPort ?? freePort;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await pickPort());
    const inspectorPort = options.inspectorPort ?? (await pickPort());
    try {
      return await startOnce(options, port, inspectorPort);
    } catch (error) {
      const chosenHere = options.port === undefined || options.inspectorPort === undefined;
      if (!chosenHere || attempt >= PORT_ATTEMPTS || !/Address already in use/.test(String(error)))
        throw error;
    }
  }
}

const PORT_ATTEMPTS = 3;

interface StartOptions {
  persistTo: string;
  secret: string;
  logFile: string;
  /** A wrangler config other than the project's (the benchmark serves its prebuilt bundle). */
  config?: string;
  viaDevScript?: boolean;
  /** More `--var NAME:value` (the benchmark's simulated deployment). */
  vars?: Record<string, string>;
  port?: number;
  inspectorPort?: number;
  /** How a free port is found when none is given (`freePort`; a test hands out a taken one). */
  pickPort?: () => Promise<number>;
  timeoutMs?: number;
}

async function startOnce(options: StartOptions, port: number, inspectorPort: number): Promise<DevServer> {
  const logOffset = existsSync(options.logFile) ? statSync(options.logFile).size : 0;
  const log = openSync(options.logFile, "a");
  const started = performance.now();
  const origin = `http://127.0.0.1:${port}`;
  // The dev script sets its own public origin (localhost); a bare wrangler dev gets this one.
  const program = options.viaDevScript
    ? [join(PROJECT_ROOT, "scripts", "dev.ts")]
    : [WRANGLER_JS, "dev", "--var", "ENVIRONMENT:development", "--var", `PUBLIC_BASE_URL:${origin}`];
  const child = spawn(
    process.execPath,
    [
      ...program,
      ...(options.config ? ["--config", options.config] : []),
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
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
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: ["ignore", log, log],
      detached: true,
    },
  );
  await waitUntilServing(child, origin, options.secret, options.timeoutMs ?? 120_000, {
    file: options.logFile,
    offset: logOffset,
  });
  return { origin, child, startMs: Math.round(performance.now() - started) };
}

/**
 * Waits until a `wrangler dev` started by a script answers an authenticated request, failing early
 * when the process exits. Shared by the benchmark and the soak run.
 */
async function waitUntilServing(
  child: ChildProcess,
  origin: string,
  secret: string,
  timeoutMs: number,
  logFile: { file: string; offset: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      // What it started in its group (workerd, esbuild) does not always end with it.
      signalGroup(child, "SIGKILL");
      const log = startLog(logFile);
      const message = `wrangler dev exited (${child.exitCode}); see ${logFile.file}${logTail(log)}`;
      throw /Address already in use/.test(log) ? new PortTakenError(message) : new Error(message);
    }
    try {
      const res = await fetch(`${origin}/api/v1/store`, {
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stopProcessGroup(child);
  throw new Error(
    `wrangler dev did not answer within ${timeoutMs} ms; see ${logFile.file}${logTail(startLog(logFile))}`,
  );
}

/** A start that failed because another process bound its port (or inspector port) first. */
class PortTakenError extends Error {}

/** What this start wrote to its (appended) log, without terminal colours. */
function startLog({ file, offset }: { file: string; offset: number }): string {
  try {
    return stripVTControlCharacters(readFileSync(file).subarray(offset).toString("utf8"));
  } catch {
    return "";
  }
}

/**
 * The last lines of a start's log, after its error lines from further up (a crash's goroutine dump
 * can fill the tail), so that a failure reads in the output of a run whose files are gone (CI).
 * Leaves out the lines of the `Request.cf` look-up, which fails harmlessly without network.
 */
export function logTail(log: string, lines = 15): string {
  const all = log
    .split("\n")
    .filter((l) => l.trim() !== "" && !/Request\.cf|workers\.cloudflare\.com|GetAddrInfoReqWrap/.test(l));
  const kept = [...all.slice(0, -lines).filter((l) => /\[ERROR\]/.test(l)), ...all.slice(-lines)];
  return kept.length > 0 ? `; its last lines:\n${kept.map((l) => `    ${l}`).join("\n")}` : "";
}

/** SIGTERM to the (detached) process group a script started, then SIGKILL if it lingers. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signalGroup(child, "SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
    signalGroup(child, "SIGKILL");
    await Promise.race([exited, sleep(5_000)]);
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
