import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { PHASES, type Phase } from "../lib/phase-clock.ts";

const PHASE_NAMES = new Set<string>(PHASES);

/**
 * Adds what the cached read entrypoint reported in its `Server-Timing` (its D1 round trips, rows
 * read and written, and phases) to this request's, so a miss reports the work it caused as an uncached read does.
 */
export function absorbServerTiming(c: Context<AppEnv>, header: string | null): void {
  if (!header) return;
  const stats = c.get("dbStats");
  const phases: [Phase, number][] = [];
  for (const entry of header.split(",")) {
    const [name = "", ...params] = entry.trim().split(";");
    const ms = Number(params.find((p) => p.startsWith("dur="))?.slice(4));
    if (!Number.isFinite(ms)) continue;
    if (name === "d1") stats.roundTrips += ms;
    else if (name === "d1-rows") stats.rowsRead += ms;
    else if (name === "d1-rows-written") stats.rowsWritten = (stats.rowsWritten ?? 0) + ms;
    else if (PHASE_NAMES.has(name)) phases.push([name as Phase, ms]);
  }
  c.get("phases").absorb(phases);
}
