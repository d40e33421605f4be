import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BENCH_DIR = join(PROJECT_ROOT, "bench");

/** Node flags of a child process that runs the served bundle (bench/lib/workers-module.ts). */
export const BUNDLE_NODE_FLAGS = [
  "--disable-warning=ExperimentalWarning",
  "--import",
  pathToFileURL(join(BENCH_DIR, "lib", "workers-module.ts")).href,
];
