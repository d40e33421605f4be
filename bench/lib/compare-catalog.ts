import { join } from "node:path";
import { type Scenario, scenarios } from "../scenarios.ts";
import { type Bundle, bundleConfig } from "./bundle.ts";
import { createState, loadSeed, snapshot } from "./database.ts";
import { log } from "./log.ts";
import { startDevServer, stopDevServer } from "./server.ts";

/** A second, smaller catalog served by its own `wrangler dev`: what a stage needs to run against it. */
interface CatalogServer {
  scale: number;
  origin: string;
  secret: string;
  /** Its SQLite file (read it only: the server owns it). */
  sqliteFile: string;
  /** A copy of the seeded catalog taken before the server started (what bulk floors write on). */
  floorFile: string;
  workDir: string;
  /** The read scenarios with ids picked from this catalog. */
  scenarios: Scenario[];
}

/** A stage run against the compare catalog's server (rows read per read, the bulk jobs). */
export type CompareStage = (server: CatalogServer) => Promise<void>;

/**
 * Seeds the compare catalog into its own state (`<workDir>/compare-scale-N/`), serves it with the
 * same bundle, runs each stage against it in order and stops the server. A stage that throws is
 * an error of the run, and the next stage still runs.
 */
export async function runCompareCatalog(o: {
  scale: number;
  workDir: string;
  bundle: Bundle;
  secret: string;
  stages: CompareStage[];
  errors: string[];
}): Promise<void> {
  const workDir = join(o.workDir, `compare-scale-${o.scale}`);
  log(`compare catalog: scale ${o.scale}, state in ${workDir}`);
  const { sqliteFile } = createState(join(workDir, "state"));
  await loadSeed(sqliteFile, o.scale, o.secret);
  const list = scenarios(sqliteFile);
  const floorFile = join(workDir, "floor.sqlite");
  snapshot(sqliteFile, floorFile);
  const config = bundleConfig(o.bundle, join(workDir, "wrangler.toml"));
  const server = await startDevServer({
    persistTo: join(workDir, "state"),
    config,
    secret: o.secret,
    logFile: join(workDir, "wrangler.log"),
  });
  log(`compare catalog answering on ${server.origin} after ${server.startMs} ms`);
  const catalog: CatalogServer = {
    scale: o.scale,
    origin: server.origin,
    secret: o.secret,
    sqliteFile,
    floorFile,
    workDir,
    scenarios: list,
  };
  try {
    for (const stage of o.stages) {
      try {
        await stage(catalog);
      } catch (err) {
        o.errors.push(
          `compare catalog (scale ${o.scale}): ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  } finally {
    await stopDevServer(server);
  }
}
