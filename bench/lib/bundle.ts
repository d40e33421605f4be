import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { runWrangler } from "../../scripts/lib/wrangler.ts";
import { PROJECT_ROOT } from "./paths.ts";

export interface BundleSize {
  files: { name: string; bytes: number; gzipBytes: number }[];
  rawBytes: number;
  gzipBytes: number;
}

export interface Bundle {
  dir: string;
  /** The Worker module (the bundle's `main`). */
  entry: string;
  size: BundleSize;
  buildMs: number;
}

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

/**
 * `wrangler deploy --dry-run --outdir`: the Worker exactly as it would be uploaded. Its size is
 * measured (modules only: no source map, no README), and the benchmark serves and captures this
 * very bundle, so edits to src/ during a run neither reload the server nor change what is measured.
 * `checkout`: another worktree of the project to build (bench/ab.ts builds the commit it compares with).
 */
export function buildBundle(dir: string, checkout = PROJECT_ROOT): Bundle {
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  runWrangler(["deploy", "--dry-run", "--outdir", dir], { quiet: true, cwd: checkout });
  const buildMs = Math.round(performance.now() - started);
  const files = walk(dir)
    .filter((f) => !f.endsWith(".map") && !f.endsWith("README.md"))
    .map((f) => {
      const content = readFileSync(f);
      return { name: relative(dir, f), bytes: content.length, gzipBytes: gzipSync(content).length };
    });
  const entry = join(dir, "index.js");
  return {
    dir,
    entry,
    buildMs,
    size: {
      files,
      rawBytes: files.reduce((a, f) => a + f.bytes, 0),
      gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0),
    },
  };
}

/**
 * A copy of wrangler.toml that serves the prebuilt bundle (`no_bundle`): `main` points at it and the
 * other relative paths (assets, migrations) are made absolute, as the copy lives elsewhere.
 */
export function bundleConfig(bundle: Pick<Bundle, "entry">, target: string) {
  const source = readFileSync(join(PROJECT_ROOT, "wrangler.toml"), "utf8");
  let sawMain = false;
  const text = source.replace(
    /^(\s*)(main|directory|migrations_dir)(\s*=\s*)"([^"]+)"/gm,
    (_all, indent: string, key: string, eq: string, value: string) => {
      if (key === "main") {
        sawMain = true;
        return `${indent}main${eq}${JSON.stringify(bundle.entry)}\n${indent}no_bundle = true`;
      }
      return `${indent}${key}${eq}${JSON.stringify(resolve(PROJECT_ROOT, value))}`;
    },
  );
  if (!sawMain) throw new Error("wrangler.toml has no top-level main");
  writeFileSync(target, text);
  return target;
}
