import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { buildSeed, toSqlScript } from "../../src/seed/index.ts";
import { d1Execute, d1Query, environmentArgs, localStateArgs, runWrangler } from "./wrangler.ts";

/** The local D1 database of `wrangler dev` (.wrangler/state), managed by wrangler commands. */

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function applyLocalMigrations(options: { quiet?: boolean } = {}) {
  runWrangler(
    ["d1", "migrations", "apply", "DB", "--local", ...localStateArgs(), ...environmentArgs()],
    options,
  );
}

interface TableInfo {
  name: string;
  /** Tables this one references (foreign keys), itself excluded. */
  parents: string[];
}

/** The application's tables (not SQLite's, D1's or the migrations ledger) with their FK parents. */
function listTables(): TableInfo[] {
  const rows = d1Query<{ name: string; parents: string | null }>(
    "local",
    `SELECT m.name AS name, group_concat(f."table") AS parents
     FROM sqlite_master m LEFT JOIN pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name <> 'd1_migrations'
     GROUP BY m.name ORDER BY m.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    parents: (r.parents ?? "").split(",").filter((p) => p && p !== r.name),
  }));
}

/**
 * Tables whose rows describe the others rather than hold data: `row_counts` (migration 0005) has a
 * row per counted table from the start, and `cache_generations` counts writes, so neither says
 * whether the database is empty.
 */
const BOOKKEEPING_TABLES = new Set(["row_counts", "cache_generations"]);

/** Names of the application tables that hold at least one row (bookkeeping tables aside). */
export function nonEmptyTables(): string[] {
  const tables = listTables().filter((t) => !BOOKKEEPING_TABLES.has(t.name));
  if (tables.length === 0) return [];
  // One statement per table in one wrangler call (D1 caps the terms of a compound SELECT).
  const sql = tables.map((t) => `SELECT EXISTS (SELECT 1 FROM ${quote(t.name)}) AS filled`).join(";\n");
  const results = d1Execute<{ filled: number }>("local", { command: sql });
  return tables.filter((_, i) => results[i]?.results[0]?.filled === 1).map((t) => t.name);
}

/**
 * SQL that deletes every row of every application table, children before parents (deferred
 * foreign keys cover a reference cycle, of which there is none today).
 */
function emptyAllTablesSql(): string {
  const pending = new Map(listTables().map((t) => [t.name, t]));
  const order: string[] = [];
  while (pending.size > 0) {
    // A table can be emptied once no remaining table references it.
    const ready = [...pending.values()].filter(
      (t) => ![...pending.values()].some((other) => other !== t && other.parents.includes(t.name)),
    );
    for (const t of ready.length > 0 ? ready : [...pending.values()]) {
      order.push(t.name);
      pending.delete(t.name);
    }
  }
  return ["PRAGMA defer_foreign_keys = on", ...order.map((name) => `DELETE FROM ${quote(name)}`)]
    .map((statement) => `${statement};\n`)
    .join("");
}

/**
 * Loads the demo seed (with the well-known local keys) into the local database, in one
 * transaction; with `reset`, the same transaction first empties every table.
 */
export async function loadLocalSeed(options: { scale?: number; reset?: boolean } = {}) {
  const started = performance.now();
  const statements = await buildSeed({ scale: options.scale ?? 1, includeLocalKeys: true });
  // Then the planner's statistics of the loaded data, as the hourly cron refreshes them on D1.
  const script = `${options.reset ? emptyAllTablesSql() : ""}${toSqlScript(statements)}\n${OPTIMIZE_SQL};\n`;
  withTempFile(script, (file) => d1Execute("local", { file }));
  return { statements: statements.length, ms: Math.round(performance.now() - started) };
}

function withTempFile<T>(content: string, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "storefront-seed-"));
  try {
    const file = join(dir, "script.sql");
    writeFileSync(file, content);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run dev`'s preparation: pending migrations, then the demo seed when the database is empty. */
export async function prepareLocalDb() {
  applyLocalMigrations({ quiet: true });
  const filled = nonEmptyTables();
  if (filled.length > 0) {
    console.log(
      `Local database has data (${filled.join(", ")}); not seeding. Reload it with: npm run seed -- --reset`,
    );
    return;
  }
  const { ms } = await loadLocalSeed();
  console.log(`Local database was empty: loaded the demo seed in ${ms} ms.`);
  printLocalKeys();
}

export function printLocalKeys() {
  console.log(
    "Local API keys: sfk_local_development_key (read, write, admin), sfk_local_readonly_key (read).",
  );
}
