import { type DevServer, startWranglerDev, stopProcessGroup } from "../../scripts/lib/dev-process.ts";

export type { DevServer };

/**
 * `wrangler dev` serving the benchmark's own persisted state and prebuilt bundle (see bundle.ts).
 * The stages measure the work of computing answers, so the edge cache is off unless a stage's
 * `vars` turn it on (`EDGE_CACHE: "on"`).
 */
export const startDevServer = (options: {
  persistTo: string;
  /** A wrangler config serving the prebuilt bundle. */
  config: string;
  secret: string;
  logFile: string;
  /** More `--var NAME:value` for the Worker. */
  vars?: Record<string, string>;
  timeoutMs?: number;
}) => startWranglerDev({ ...options, vars: { EDGE_CACHE: "off", ...options.vars } });

/** Stops the server this benchmark started (its whole process group). */
export const stopDevServer = (server: DevServer) => stopProcessGroup(server.child);
