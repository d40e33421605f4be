import { DatabaseSync } from "node:sqlite";

/**
 * What the project guide measured on these machines: node:sqlite at about 2 M single-row inserts a
 * second. The same machine kind has run the probe below at a quarter of that (2026-11-27: 0.5 M/s,
 * and a JavaScript loop taking 0.55 s one minute and 1.9 s the next): the absolute targets (records
 * or products a second) were set on a faster moment of it than some runs get.
 */
const REFERENCE_INSERTS_PER_SECOND = 2_000_000;

const ROWS = 200_000;
const RUNS = 3;

/**
 * The machine's speed right now: single-row inserts a second into an in-memory node:sqlite table
 * (one prepared statement, one transaction), the best of three runs of 200,000 (about 1 s in all
 * on a slow moment). Taken at the start and the end of a benchmark run, it tells how fast the
 * machine was while the absolute figures were measured; the floors and ratios beside each figure
 * are measured in the same minutes and need no such correction.
 */
export function machineSpeed(): number {
  let best = 0;
  for (let run = 0; run < RUNS; run++) {
    const db = new DatabaseSync(":memory:");
    try {
      db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
      const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
      const started = performance.now();
      db.exec("BEGIN");
      for (let i = 0; i < ROWS; i++) insert.run(i, "x");
      db.exec("COMMIT");
      best = Math.max(best, ROWS / ((performance.now() - started) / 1000));
    } finally {
      db.close();
    }
  }
  return Math.round(best);
}

/** "0.52 M single-row inserts/s (26 % of the guide's)". */
export function speedText(insertsPerSecond: number): string {
  const share = Math.round((100 * insertsPerSecond) / REFERENCE_INSERTS_PER_SECOND);
  return `${(insertsPerSecond / 1e6).toFixed(2)} M single-row inserts/s (${share} % of the guide's)`;
}
