import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema/index.ts";
import type { RouteMeta, Scope } from "./http/route-table.ts";
import type { PhaseClock } from "./lib/phase-clock.ts";

/**
 * The Worker's bindings: `Env` is generated from wrangler.toml by `npm run types` (committed as
 * worker-configuration.d.ts; `npm test` fails when it drifts), plus the optional variables no
 * wrangler.toml sets by default.
 */
export interface Bindings extends Env {
  /**
   * The public origin (`https://api.example.com`) stored images render on, set by `npm run dev` and
   * `npm run deploy`. Unset: image URLs are root-relative, never on the origin a request names.
   * Rows store only the object key, so changing it needs no data migration.
   */
  PUBLIC_BASE_URL?: string;
  /** Set to "on" to apply rate limits outside production (tests of the limiter). */
  RATE_LIMITS?: string;
  /** Seconds without progress before a job is re-driven (src/jobs/liveness.ts; default 300). */
  JOB_STALL_SECONDS?: string;
  /** A simulated D1 round trip in ms, development only (the benchmark's `--d1-rtt`; src/simulated-latency.ts). */
  SIMULATED_D1_RTT_MS?: string;
  /** A simulated queue delivery delay in ms, development only (the benchmark's `--queue-delay-ms`). */
  SIMULATED_QUEUE_DELAY_MS?: string;
  /** "off" answers every read without the edge cache (src/edge/; `npm run dev -- --no-edge-cache`). */
  EDGE_CACHE?: string;
}

/** drizzle over D1 (or a D1 session); `$client` is the binding itself, for raw batches (src/db/raw.ts). */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** D1 work of one request: round trips, and rows read and written as D1 bills them (`meta`). */
interface DbStats {
  roundTrips: number;
  rowsRead: number;
  /** `meta.rows_written`: each written row and index entry. */
  rowsWritten?: number;
  /**
   * The edge cache's reads of its generations (src/edge/generations.ts): at most one per isolate
   * every 2 s, reported apart (`cache-d1`) so `d1` stays the work of computing the answer.
   */
  generationReads?: number;
}

/**
 * What the edge cache did with a request (src/edge/): served it (`hit`), computed and offered it to
 * the cache (`miss`), was not consulted (`bypass`, or `request` when the request's headers asked),
 * or, inside the cached read entrypoint, is computing an answer for the cache (`fill`).
 */
export type CacheOutcome = "hit" | "miss" | "bypass" | "request" | "fill";

export interface AuthenticatedKey {
  id: number;
  scopes: readonly Scope[];
}

interface Variables {
  requestId: string;
  /** Database handle bound to this request's D1 session. */
  db: Db;
  /** Counts D1 round trips of this request and the rows they read (reported in Server-Timing). */
  dbStats: DbStats;
  /** Where this request's time goes (validation, D1, mapping, rendering, JSON, ETag), in Server-Timing. */
  phases: PhaseClock;
  apiKey: AuthenticatedKey;
  /** The raw body bytes of a write request, read once under the size limit. */
  rawBody: Uint8Array | undefined;
  routeMeta: RouteMeta;
  /** Set by the edge cache; reported in the request log line and Server-Timing. */
  cacheOutcome: CacheOutcome | undefined;
  /** The instant the answer being rendered changes without a write (src/edge/lifetime.ts). */
  changesAt: number | undefined;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
