import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BENCH_DIR = join(PROJECT_ROOT, "bench");

/** The project's wrangler entry, run with the Node running the benchmark (the pinned Node 22). */
export const WRANGLER_JS = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);
