/**
 * npm run typecheck: the binding types' drift check, then every TypeScript project at once (the
 * Worker with its tests, the Node scripts and bench, the client, and the client as two consumer
 * projects). Run one after another they took ~55 s on this 2-core machine, side by side ~45 s the
 * first time; again after a change, a few seconds.
 */
import { spawn } from "node:child_process";

const PROJECTS = [
  "tsconfig.json",
  "tsconfig.node.json",
  "client/tsconfig.json",
  "client/tsconfig.nodenext.json",
  "client/tsconfig.bundler.json",
];

const run = (command: string, args: string[]) =>
  new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });

const types = await run("npm", ["run", "types", "--", "--check"]);
// Incremental: a run after the first re-checks only what changed (the state lives in node_modules,
// so a fresh clone starts from nothing and gets the full check).
const cache = (project: string) => `node_modules/.cache/tsc/${project.replaceAll("/", "_")}.tsbuildinfo`;
const codes = await Promise.all(
  PROJECTS.map((p) => run("tsc", ["--noEmit", "--incremental", "--tsBuildInfoFile", cache(p), "-p", p])),
);
const failed = PROJECTS.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) console.error(`typecheck failed in: ${failed.join(", ")}`);
process.exitCode = types !== 0 || failed.length > 0 ? 1 : 0;
