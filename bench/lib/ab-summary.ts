/** One job of one round, run by one of the two bundles (bench/ab.ts). */
export interface AbSample {
  side: "base" | "head";
  round: number;
  key: string;
  wallMs: number;
  cpuMs: number;
  /** The job's final status: only `done` samples are compared. */
  status: string;
}

export interface AbRow {
  key: string;
  /** Rounds where both bundles finished the job. */
  rounds: number;
  base: { wallMs: number; cpuMs: number };
  head: { wallMs: number; cpuMs: number };
  /** head ÷ base CPU time per round: median, smallest, largest. */
  cpuRatio: { median: number; min: number; max: number };
  wallRatio: { median: number; min: number; max: number };
  /**
   * `faster` or `slower` when every one of at least `MIN_ROUNDS` rounds says so (by chance alone,
   * either way: 1 time in 16 at 5 rounds), else `within the spread`.
   */
  verdict: "faster" | "slower" | "within the spread";
  /** Samples that did not end `done` (`side round: status`). */
  failed: string[];
}

/**
 * Rounds a verdict needs. Two same-code bundles (an A-A run) at 3 rounds came out 4–13 % apart in
 * every round of one job: single runs here differ by ±5 % and three agreeing rounds happen 1 time
 * in 4 by chance alone.
 */
export const MIN_ROUNDS = 5;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Median, smallest and largest; all NaN when no round finished. */
const spread = (values: number[]) =>
  values.length === 0
    ? { median: Number.NaN, min: Number.NaN, max: Number.NaN }
    : { median: median(values), min: Math.min(...values), max: Math.max(...values) };

/**
 * Each job's two bundles compared round by round: a round runs both in turn on copies of the same
 * catalog, so its ratio is taken at one moment of a machine whose speed drifts several-fold within
 * an hour (bench/lib/machine-speed.ts); the medians across rounds are shown beside it.
 */
export function summarizeAb(samples: AbSample[]): AbRow[] {
  const keys = [...new Set(samples.map((s) => s.key))];
  return keys.map((key) => {
    const of = samples.filter((s) => s.key === key);
    const failed = of.filter((s) => s.status !== "done").map((s) => `${s.side} ${s.round}: ${s.status}`);
    const pairs = [...new Set(of.map((s) => s.round))].flatMap((round) => {
      const base = of.find((s) => s.round === round && s.side === "base" && s.status === "done");
      const head = of.find((s) => s.round === round && s.side === "head" && s.status === "done");
      return base && head ? [{ base, head }] : [];
    });
    const cpuRatio = spread(pairs.map((p) => p.head.cpuMs / p.base.cpuMs));
    const verdict =
      pairs.length < MIN_ROUNDS
        ? "within the spread"
        : cpuRatio.max < 1
          ? "faster"
          : cpuRatio.min > 1
            ? "slower"
            : "within the spread";
    return {
      key,
      rounds: pairs.length,
      base: {
        wallMs: median(pairs.map((p) => p.base.wallMs)),
        cpuMs: median(pairs.map((p) => p.base.cpuMs)),
      },
      head: {
        wallMs: median(pairs.map((p) => p.head.wallMs)),
        cpuMs: median(pairs.map((p) => p.head.cpuMs)),
      },
      cpuRatio,
      wallRatio: spread(pairs.map((p) => p.head.wallMs / p.base.wallMs)),
      verdict,
      failed,
    };
  });
}
