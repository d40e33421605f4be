import type { Context } from "hono";
import {
  CACHE_DOMAINS,
  type CacheDomain,
  type Generations,
  STAMPED_BUCKETS,
  type StampedDomain,
} from "../db/cache-generations.ts";
import type { AppEnv } from "../env.ts";

/**
 * How long an isolate trusts the generations it read: the freshness bound of the cache. A write
 * committed by another isolate (a bulk chunk on a queue consumer, a write served elsewhere) shows
 * in this isolate's answers at most this long after it committed; a write this isolate committed
 * shows at once (`forgetGenerations`). Read on the primary, so no replica lag adds to it.
 */
export const GENERATIONS_TTL_MS = 2000;

export interface KnownGenerations {
  values: Generations;
  /** The bucket stamps of the stamped domains (src/db/cache-generations.ts); absent: every bucket at the domain's value. */
  stamps: Partial<Record<StampedDomain, readonly number[]>>;
  /** The D1 bookmark of the read: a fill reads data at least this fresh (src/edge/gateway.ts). */
  bookmark: string | null;
  readAt: number;
}

let known: KnownGenerations | undefined;
/** Bumped by every forget: a read begun before it must not be kept after it. */
let epoch = 0;

/**
 * The generations this isolate knows, read again from D1 once they are older than the TTL. Each
 * request that finds them stale reads them itself: a read shared between requests would be a
 * promise of one request awaited by another, which workerd does not deliver reliably.
 */
export async function currentGenerations(c: Context<AppEnv>): Promise<KnownGenerations> {
  const now = Date.now();
  // A clock set back (tests moving time) must not make an old read look fresh.
  if (known && now >= known.readAt && now - known.readAt < GENERATIONS_TTL_MS) return known;
  const started = epoch;
  const read = await readOnPrimary(c, now);
  if (started === epoch && (!known || known.readAt <= read.readAt)) known = read;
  return read;
}

async function readOnPrimary(c: Context<AppEnv>, now: number): Promise<KnownGenerations> {
  const db = c.env.DB;
  const session = typeof db.withSession === "function" ? db.withSession("first-primary") : undefined;
  // Reported apart from the answer's own D1 work (`cache-d1` in Server-Timing).
  const stats = c.get("dbStats");
  stats.generationReads = (stats.generationReads ?? 0) + 1;
  // Waiting on D1, not working: the phases say so, as they do for the answer's own queries.
  const phases = c.get("phases");
  const left = phases.enter("d1-wait");
  const { results } = await (session ?? db)
    .prepare("SELECT domain, generation, stamps FROM cache_generations")
    .all<{ domain: string; generation: number; stamps: string | null }>()
    .finally(() => phases.enter(left));
  const values = Object.fromEntries(CACHE_DOMAINS.map((d) => [d, 0])) as Generations;
  const stamps: KnownGenerations["stamps"] = {};
  for (const row of results) {
    if (row.domain in values) values[row.domain as CacheDomain] = row.generation;
    if (Object.hasOwn(STAMPED_BUCKETS, row.domain) && row.stamps) {
      const domain = row.domain as StampedDomain;
      stamps[domain] = parseStamps(row.stamps, STAMPED_BUCKETS[domain]);
    }
  }
  return { values, stamps, bookmark: session?.getBookmark() ?? null, readAt: now };
}

/** The stamps, or undefined unless they are exactly `buckets` integers. */
function parseStamps(text: string, buckets: number): number[] | undefined {
  try {
    const stamps: unknown = JSON.parse(text);
    return Array.isArray(stamps) && stamps.length === buckets && stamps.every(Number.isInteger)
      ? stamps
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Called after this isolate committed a change of any domain: its next cached read reads the
 * generations again, so it answers the write at once (one local `npm run dev` is never stale).
 */
export function forgetGenerations(): void {
  epoch++;
  known = undefined;
}
