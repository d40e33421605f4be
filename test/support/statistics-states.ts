import { env } from "cloudflare:test";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { buildSeed } from "../../src/seed/index.ts";

/**
 * The three planner-statistics states every statement's plan must survive (DECISIONS §14):
 * - `none`: no `sqlite_stat1` rows (a database nobody analyzed; SQLite guesses a million rows per table);
 * - `stale`: the statistics `PRAGMA optimize` took on the demo seed (what `npm run dev` leaves: 40
 *   products, 120 variants), kept while imports grew the catalog 50× and more;
 * - `fresh`: `PRAGMA optimize` on the catalog as it is (what the hourly cron and a job's end leave).
 */
export const STATISTICS_STATES = ["none", "stale", "fresh"] as const;
export type StatisticsState = (typeof STATISTICS_STATES)[number];

export interface StatRow {
  tbl: string;
  idx: string | null;
  stat: string;
}

/**
 * The statistics of the demo seed, as `npm run dev` takes them right after seeding: the seed is
 * loaded (the test file's store kept), analyzed by the service's own `PRAGMA optimize`, and emptied
 * again, so the test builds its catalog on the same ids. The rows are put back as the `stale` state
 * once the catalog has grown: the planner then has exactly what it had on the demo, whatever
 * states the tests went through in between (D1 keeps one connection, which a later ANALYZE updates).
 */
export async function demoSeedStatistics(): Promise<StatRow[]> {
  const tableOf = (q: string) => /INTO "?(\w+)/.exec(q)?.[1] ?? "store";
  const seed = (await buildSeed({ scale: 1 })).filter((s) => !tableOf(s.sql).startsWith("store"));
  await env.DB.batch(seed.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
  await env.DB.prepare(OPTIMIZE_SQL).run();
  const { results } = await env.DB.prepare("SELECT tbl, idx, stat FROM sqlite_stat1").all<StatRow>();
  const tables = [...new Set(seed.map((s) => tableOf(s.sql)))].reverse();
  await env.DB.batch(tables.map((t) => env.DB.prepare(`DELETE FROM "${t}"`)));
  return results;
}

/**
 * Puts the planner in `state`: the statistics rows replaced, then `ANALYZE sqlite_schema`, which
 * makes SQLite load them again (and reset every index it finds no row for to its defaults).
 */
export async function useStatistics(state: StatisticsState, stale: StatRow[]): Promise<void> {
  const rows = state === "stale" ? stale : [];
  await env.DB.batch([
    env.DB.prepare("DELETE FROM sqlite_stat1"),
    ...rows.map((r) =>
      env.DB.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)").bind(r.tbl, r.idx, r.stat),
    ),
    env.DB.prepare("ANALYZE sqlite_schema"),
  ]);
  if (state === "fresh") await env.DB.prepare(OPTIMIZE_SQL).run();
}

/** The estimated row count the statistics give `table` (undefined: none). */
export async function estimatedRows(table: string): Promise<number | undefined> {
  const row = await env.DB.prepare("SELECT max(CAST(stat AS INTEGER)) AS n FROM sqlite_stat1 WHERE tbl = ?")
    .bind(table)
    .first<{ n: number | null }>();
  return row?.n ?? undefined;
}
