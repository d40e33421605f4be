import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildSeed, toSqlScript } from "../../src/seed/index.ts";
import { stopProcessGroup, waitUntilServing } from "./dev-process.ts";
import { PROJECT_ROOT, runWrangler } from "./wrangler.ts";

/**
 * A throwaway `wrangler dev` for the soak run: its own `--persist-to` directory (never the
 * developer's .wrangler/state), migrated and loaded with the demo seed, served on a free loopback
 * port, in its own process group so that stopping it also stops workerd.
 */
export interface SoakServer {
  origin: string;
  dir: string;
  logFile: string;
  child: ChildProcess;
}

const WRANGLER_JS = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

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

/** A fresh state directory with the migrations applied and the demo seed (with the local keys) loaded. */
export async function prepareState(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "storefront-soak-"));
  const state = join(dir, "state");
  runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { quiet: true });
  const file = join(dir, "seed.sql");
  writeFileSync(file, toSqlScript(await buildSeed({ scale: 1, includeLocalKeys: true })));
  runWrangler(["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file, "--yes"], {
    quiet: true,
  });
  return dir;
}

export async function startServer(dir: string, secret: string, timeoutMs = 120_000): Promise<SoakServer> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const logFile = join(dir, "wrangler-dev.log");
  const log = openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    [
      WRANGLER_JS,
      "dev",
      "--log-level",
      "warn",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      join(dir, "state"),
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
  const server = { origin: `http://127.0.0.1:${port}`, dir, logFile, child };
  await waitUntilServing(child, server.origin, secret, timeoutMs, logFile);
  return server;
}

/** Stops the server this script started (its whole process group). */
export const stopServer = (server: SoakServer) => stopProcessGroup(server.child);

export const removeState = (dir: string) => rmSync(dir, { recursive: true, force: true });
