/**
 * Copies Scalar's standalone browser bundle into public/docs/scalar.js, the Workers static asset
 * that GET /docs loads (never a CDN). Runs as wrangler's `[build]` command (wrangler.toml: before
 * every `wrangler dev` and `wrangler deploy`, bare or through npm) and as the pretest and prebench
 * hooks; writes only when the content changed, so `wrangler dev` does not reload for nothing.
 * Plain JavaScript: wrangler runs the build command with whatever `node` is first on PATH, which for
 * a bare `wrangler` call outside npm scripts may be older than the pinned Node 22 (no type stripping).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "public", "docs", "scalar.js");

/** The package root: its exports map hides both package.json and dist/browser. */
/** @param {string} name */
function packageRoot(name) {
  let dir = dirname(createRequire(join(root, "package.json")).resolve(name));
  while (!existsSync(join(dir, "package.json")) || readJson(join(dir, "package.json")).name !== name) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the root of ${name}`);
    dir = parent;
  }
  return dir;
}

/**
 * @param {string} path
 * @returns {{ name?: string; version?: string; license?: string }}
 */
function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

const pkgDir = packageRoot("@scalar/api-reference");
const pkg = readJson(join(pkgDir, "package.json"));
const source = join(pkgDir, "dist", "browser", "standalone.js");
if (!existsSync(source)) {
  throw new Error(`${relative(root, source)} is missing: has @scalar/api-reference changed its layout?`);
}

// The source map is not shipped (17 MB); drop the comment that would make devtools ask for it.
const bundle = readFileSync(source, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
const banner = `/*! ${pkg.name} ${pkg.version} | ${pkg.license} License | https://github.com/scalar/scalar */\n`;
const content = banner + bundle;

if (existsSync(target) && readFileSync(target, "utf8") === content) {
  console.log(`${relative(root, target)} is up to date (${pkg.name} ${pkg.version})`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${relative(root, target)} from ${pkg.name} ${pkg.version}`);
}
