import { type DevServer, startWranglerDev, stopProcessGroup } from "../../scripts/lib/dev-process.ts";

export type { DevServer };

/** `wrangler dev` serving the benchmark's own persisted state and prebuilt bundle (see bundle.ts). */
export const startDevServer = (options: {
  persistTo: string;
  /** A wrangler config serving the prebuilt bundle. */
  config: string;
  secret: string;
  logFile: string;
  /** More `--var NAME:value` for the Worker. */
  vars?: Record<string, string>;
  timeoutMs?: number;
}) => startWranglerDev(options);

/** Stops the server this benchmark started (its whole process group). */
export const stopDevServer = (server: DevServer) => stopProcessGroup(server.child);
