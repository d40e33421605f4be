import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { runWrangler } from "../../scripts/lib/wrangler.ts";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { sha256Hex } from "../../src/lib/sha256.ts";
import { buildSeed, displayPrefix } from "../../src/seed/index.ts";

/** Where wrangler keeps a local D1 database under `--persist-to`. */
const D1_DIR = ["v3", "d1", "miniflare-D1DatabaseObject"];

/** Fresh benchmark state: empty dir, migrations applied by wrangler (which creates the SQLite file). */
export function createState(persistTo: string): { sqliteFile: string; migrateMs: number } {
  rmSync(persistTo, { recursive: true, force: true });
  mkdirSync(persistTo, { recursive: true });
  const started = performance.now();
  runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], { quiet: true });
  return { sqliteFile: findSqliteFile(persistTo), migrateMs: Math.round(performance.now() - started) };
}

function findSqliteFile(persistTo: string): string {
  const dir = join(persistTo, ...D1_DIR);
  const files = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    : [];
  if (files.length !== 1) throw new Error(`expected one D1 database file in ${dir}, found ${files.length}`);
  return join(dir, files[0] as string);
}

export const openDb = (file: string, readOnly = false) => {
  const db = new DatabaseSync(file, { readOnly });
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
};

/** Prepared statements by SQL text, prepared once (as a better-sqlite3 program would). */
export function statementCache(db: DatabaseSync) {
  const cache = new Map<string, StatementSync>();
  return (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/**
 * Loads `buildSeed({ scale })` straight into the SQLite file wrangler created, in one transaction,
 * and adds an API key (all scopes) whose secret only this run knows. Much faster than a
 * `wrangler d1 execute --file` script of the same rows (see RESULTS.md).
 */
export async function loadSeed(sqliteFile: string, scale: number, secret: string) {
  const buildStarted = performance.now();
  const statements = await buildSeed({ scale });
  const buildMs = Math.round(performance.now() - buildStarted);
  const db = openDb(sqliteFile);
  const started = performance.now();
  try {
    // Only this connection's durability: a crash mid-load just means running the benchmark again.
    db.exec("PRAGMA synchronous = OFF");
    const prepared = statementCache(db);
    db.exec("BEGIN");
    for (const s of statements) prepared(s.sql).run(...(s.params as SQLInputValue[]));
    prepared(
      "INSERT INTO api_keys (id, name, prefix, key_hash, scopes) VALUES ((SELECT coalesce(max(id), 0) + 1 FROM api_keys), ?, ?, ?, ?)",
    ).run(
      "benchmark",
      displayPrefix(secret),
      await sha256Hex(secret),
      JSON.stringify(["read", "write", "admin"]),
    );
    db.exec("COMMIT");
    // As the hourly cron does on D1: the planner's statistics of the loaded catalog.
    db.exec(OPTIMIZE_SQL);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return { statements: statements.length, buildMs, loadMs: Math.round(performance.now() - started) };
}

/** Row counts of the tables the scenarios read. */
export function tableCounts(sqliteFile: string, tables: string[]): Record<string, number> {
  const db = openDb(sqliteFile, true);
  try {
    return Object.fromEntries(
      tables.map((t) => [
        t,
        Number((db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n),
      ]),
    );
  } finally {
    db.close();
  }
}

/** A byte copy of the (checkpointed) database: the floors run on it, never on the server's file. */
export function snapshot(sqliteFile: string, target: string) {
  const db = openDb(sqliteFile);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  copyDatabase(sqliteFile, target);
}

/** A byte copy of a closed, checkpointed database file. */
function copyDatabase(source: string, target: string) {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(target + suffix, { force: true });
  copyFileSync(source, target);
}
