import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { machineSpeed } from "./machine-speed.ts";
import { PROJECT_ROOT } from "./paths.ts";

const git = (...args: string[]) => {
  try {
    return execFileSync("git", args, { cwd: PROJECT_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
};

const version = (pkg: string) =>
  (
    JSON.parse(readFileSync(join(PROJECT_ROOT, "node_modules", pkg, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

/**
 * What the numbers were measured on; `loadAverageAtStart` is the 1-minute load average when the run
 * began, `speedAtStart` the machine's speed then (lib/machine-speed.ts), measured again now.
 */
export function machine(loadAverageAtStart: number, speedAtStart: number) {
  const commit = git("rev-parse", "--short=12", "HEAD") || "unknown";
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  return {
    date: new Date().toISOString(),
    commit: dirty ? `${commit} (+ uncommitted changes)` : commit,
    nproc: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    wrangler: version("wrangler"),
    platform: `${process.platform} ${process.arch}`,
    loadAverage: [loadAverageAtStart, loadavg()[0] ?? 0],
    /** Single-row inserts a second in node:sqlite at the start and at the end (absent before 2026-11-27). */
    speed: [speedAtStart, machineSpeed()] as [number, number] | undefined,
  };
}
