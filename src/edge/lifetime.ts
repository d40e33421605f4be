import type { Context } from "hono";
import type { AppEnv } from "../env.ts";

/**
 * How long a cached answer may be served. Generations in the key end an entry at the next write of
 * a domain it read, so time alone bounds it only where content changes with time: flash offers
 * start and end at UTC day boundaries, so an answer that rendered a price ends at the next 00:00
 * UTC. Any other answer lives at most an hour, which also bounds what a write made outside the
 * service (a manual SQL statement, which bumps no generation) can leave behind.
 */
export const MAX_LIFETIME_SECONDS = 3600;

/** The first instant of the UTC day after `ms`. */
export function nextUtcMidnight(ms: number): number {
  const day = new Date(ms);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
}

/**
 * Records that the answer being rendered depends on the UTC day of `now` (it shows a selling price,
 * which a flash offer changes at day boundaries): its lifetime ends at the next 00:00 UTC. A finer
 * window would call this with its own end.
 */
export function changesAt(c: Context<AppEnv>, at: number): void {
  const known = c.get("changesAt");
  if (known === undefined || at < known) c.set("changesAt", at);
}

/** Seconds the answer may be stored from `now` (0: not at all), rounded down so it never outlives its end. */
export function lifetimeSeconds(c: Context<AppEnv>, now: number): number {
  const at = c.get("changesAt");
  if (at === undefined) return MAX_LIFETIME_SECONDS;
  return Math.max(0, Math.min(MAX_LIFETIME_SECONDS, Math.floor((at - now) / 1000)));
}
