import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSeed, toSqlScript } from "../../src/seed/index.ts";
import { startWranglerDev, stopProcessGroup } from "./dev-process.ts";
import { runWrangler } from "./wrangler.ts";

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
  const logFile = join(dir, "wrangler-dev.log");
  const { origin, child } = await startWranglerDev({
    persistTo: join(dir, "state"),
    secret,
    logFile,
    timeoutMs,
  });
  return { origin, dir, logFile, child };
}

/** Stops the server this script started (its whole process group). */
export const stopServer = (server: SoakServer) => stopProcessGroup(server.child);

export const removeState = (dir: string) => rmSync(dir, { recursive: true, force: true });
