import { join } from "node:path";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { createState, loadSeed, openDb, snapshot } from "./database.ts";
import { runHarness } from "./harness.ts";
import { log } from "./log.ts";

/** One bulk job (or a series of push jobs) of the plans stage. */
export interface PlansJob {
  key: string;
  title: string;
  status: string;
  records: number;
  succeeded: number;
  wallMs: number;
  recordsPerSecond: number;
  /** This process's CPU time for the job, and the part inside node:sqlite (the statements). */
  cpuMs: number;
  sqlCpuMs: number;
  recordsPerCpuSecond: number;
  chunks: number;
  chunkMedianMs: number;
  /** The slowest chunk message: each must commit well within D1's 30 s (target: 2 s). */
  chunkMaxMs: number;
}

/** The 2,000-key variant match, CPU ms as stated (`CROSS JOIN`) and as a plain `JOIN`. */
export interface MatchReplay {
  keys: number;
  rows: number;
  statedMs: number;
  plainJoinMs: number;
}

export interface PlansCase {
  key: string;
  replay?: MatchReplay;
  /** Variants in the catalog, and what the planner's statistics say (null: none). */
  catalogVariants: number;
  statisticsVariants: number | null;
  jobs: PlansJob[];
}

export interface PlansStage {
  run: string;
  cases: PlansCase[];
  /** `PRAGMA optimize` on the grown catalog: with the seed's statistics (analyzes), then again (nothing to do). */
  optimizeMs: { stale: number; fresh: number } | null;
}

type Scenario = "pushed" | "grown" | "seeded";
const SEED_SCALE: Record<Scenario, number> = { pushed: 1, grown: 1, seeded: 50 };

/**
 * Bulk updates on catalogs built by pushes from the demo seed, the planner statistics kept as the
 * seed left them (what `npm run dev` leaves, and production until the next refresh), beside the same
 * update on a seeded catalog with fresh statistics. Runs the served bundle in Node over node:sqlite
 * (bench/plans-inprocess.ts): on this shared machine a 60,000-variant push over wrangler dev takes
 * too long, and the plans are SQLite's either way.
 */
export async function runPlansStage(o: {
  bundle: string;
  workDir: string;
  secret: string;
  /** The smoke run (CI): the 2,000-product push and update only. */
  quick: boolean;
  errors: string[];
}): Promise<PlansStage> {
  const dir = join(o.workDir, "plans");
  const { sqliteFile: migrated } = createState(join(dir, "state"));
  const cases: PlansCase[] = [];
  let optimizeMs: PlansStage["optimizeMs"] = null;
  const scenarios: Scenario[] = o.quick ? ["pushed"] : ["pushed", "grown", "seeded"];
  for (const scenario of scenarios) {
    const file = join(dir, `${scenario}.sqlite`);
    snapshot(migrated, file);
    await loadSeed(file, SEED_SCALE[scenario], o.secret);
    const input = { bundle: o.bundle, sqliteFile: file, secret: o.secret, scenario };
    const run = runHarness<PlansCase[]>("plans-inprocess.ts", input, { maxBufferMb: 16 });
    if ("failure" in run) {
      o.errors.push(`plans ${scenario} failed ${run.failure}`);
      continue;
    }
    for (const c of run.output) {
      cases.push(c);
      for (const j of c.jobs) {
        log(
          `plans ${c.key} ${j.key}: ${j.status}, ${j.succeeded} records in ${(j.wallMs / 1000).toFixed(2)} s (${Math.round(j.recordsPerSecond)}/s), slowest chunk ${j.chunkMaxMs.toFixed(0)} ms`,
        );
        if (j.status !== "done") o.errors.push(`plans ${c.key} ${j.key}: job ended ${j.status}`);
      }
    }
    if (scenario === "grown") optimizeMs = timeOptimize(file);
  }
  return { run: "in process (the served bundle over node:sqlite)", cases, optimizeMs };
}

/** What the job-end refresh costs on the grown catalog, stale (it analyzes) and then fresh. */
function timeOptimize(file: string) {
  const db = openDb(file);
  try {
    const once = () => {
      const t = performance.now();
      db.exec(OPTIMIZE_SQL);
      return performance.now() - t;
    };
    return { stale: once(), fresh: once() };
  } finally {
    db.close();
  }
}
