import type { SQLInputValue } from "node:sqlite";
import type { RoundTrip } from "./d1-shim.ts";
import { openDb, statementCache } from "./database.ts";

interface StatementCost {
  sql: string;
  ms: number;
  rows: number;
  /** EXPLAIN QUERY PLAN, one step per entry. */
  plan: string[];
}

export interface SqlFloor {
  statements: number;
  iterations: number;
  /** Median time to run every statement of one request, in order, with prepared statements. */
  medianMs: number;
  rows: number;
  /** Each statement on its own (median), slowest first. */
  costs: StatementCost[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * The SQL floor of a scenario: the statements the engine issued for one request, run directly on
 * the same database content with node:sqlite (prepared once, as better-sqlite3 code would), timed
 * per request over `budgetMs`; then each statement alone, with its query plan.
 */
export function sqlFloor(sqliteFile: string, trips: RoundTrip[], budgetMs: number): SqlFloor {
  const statements = trips.flatMap((t) => t.statements);
  const db = openDb(sqliteFile, true);
  try {
    const prepared = statementCache(db);
    const run = (s: (typeof statements)[number]) =>
      prepared(s.sql).all(...(s.params as SQLInputValue[])).length;
    const once = () => statements.reduce((rows, s) => rows + run(s), 0);
    const rows = once();
    once();
    const times: number[] = [];
    const started = performance.now();
    while (performance.now() - started < budgetMs && times.length < 20_000) {
      const t = performance.now();
      once();
      times.push(performance.now() - t);
    }
    const perStatement = Math.max(3, Math.min(50, times.length));
    const costs = statements.map((s) => {
      const samples: number[] = [];
      let n = 0;
      for (let i = 0; i < perStatement; i++) {
        const t = performance.now();
        n = run(s);
        samples.push(performance.now() - t);
      }
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
        .all(...(s.params as SQLInputValue[]))
        .map((r) => String((r as { detail: string }).detail));
      return { sql: s.sql, ms: median(samples), rows: n, plan };
    });
    return {
      statements: statements.length,
      iterations: times.length,
      medianMs: median(times),
      rows,
      costs: costs.sort((a, b) => b.ms - a.ms),
    };
  } finally {
    db.close();
  }
}
