/**
 * Where a request's time goes, in exclusive phases: each moment belongs to exactly one phase, so
 * the phases add up to the request's time. The request starts in `other` (routing, middleware,
 * auth); code switches phase with `enter` and the time since the last switch goes to the phase it
 * leaves. Read through `Server-Timing`: meaningful where the clock runs (Node, `wrangler dev`'s
 * workerd); a deployed Worker's clock advances only at I/O, so there only `d1-wait` measures
 * anything.
 */
export const PHASES = [
  /** Parsing and validating path, query and body (src/http/route.ts). */
  "validate",
  /** The handler until its first batch: planning and building the statements (drizzle). */
  "query-build",
  /** Inside D1 batch calls (src/db/fast-batch.ts). */
  "d1-wait",
  /** Turning D1's rows into drizzle's row objects (src/db/fast-batch.ts). */
  "map",
  /** The handler after a batch answered: rendering the rows into the contract's shape. */
  "render",
  /** `c.json`: JSON.stringify and UTF-8 encoding (src/http/etag.ts). */
  "json",
  /** Hashing the body for the ETag. */
  "etag",
  /** Everything else: routing, middleware, auth, errors. */
  "other",
] as const;

export type Phase = (typeof PHASES)[number];

export class PhaseClock {
  private readonly totals = new Map<Phase, number>([["other", 0]]);
  private current: Phase = "other";
  private since = performance.now();

  /** Ends the running phase and starts `phase`; answers the phase it ended, to return to it. */
  enter(phase: Phase): Phase {
    const now = performance.now();
    const left = this.current;
    this.totals.set(left, (this.totals.get(left) ?? 0) + now - this.since);
    if (!this.totals.has(phase)) this.totals.set(phase, 0);
    this.current = phase;
    this.since = now;
    return left;
  }

  /**
   * Adds phases measured elsewhere within the running phase (the cached read entrypoint's, on a
   * miss): each counts as itself and the running phase loses their sum, so the total stays the time.
   */
  absorb(durations: Iterable<[Phase, number]>): void {
    for (const [phase, ms] of durations) {
      this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
      this.since += ms;
    }
  }

  /** `Server-Timing` entries of the phases entered so far, in ms (the running phase up to now). */
  serverTiming(): string {
    this.enter(this.current);
    return PHASES.filter((p) => this.totals.has(p))
      .map((p) => `${p};dur=${(this.totals.get(p) ?? 0).toFixed(3)}`)
      .join(", ");
  }
}
