import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BENCH_DIR, BUNDLE_NODE_FLAGS } from "./paths.ts";

/**
 * Runs one of bench/'s in-process harnesses (a script that serves the bundle in Node over
 * node:sqlite and prints its results as JSON) to its end, its input as its one argument. Either its
 * parsed output, or `failure`: "(exit N): " and the end of its stderr. `exposeGc` for the harnesses
 * that measure the heap.
 */
export function runHarness<T>(
  script: string,
  input: unknown,
  options: { exposeGc?: boolean; maxBufferMb?: number } = {},
): { output: T } | { failure: string } {
  const child = spawnSync(
    process.execPath,
    [
      ...(options.exposeGc ? ["--expose-gc"] : []),
      ...BUNDLE_NODE_FLAGS,
      join(BENCH_DIR, script),
      JSON.stringify(input),
    ],
    { encoding: "utf8", maxBuffer: (options.maxBufferMb ?? 64) * 1024 * 1024 },
  );
  if (child.status !== 0) return { failure: `(exit ${child.status}): ${child.stderr.slice(-2000)}` };
  return { output: JSON.parse(child.stdout) as T };
}
