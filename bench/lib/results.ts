import type { Scenario } from "../scenarios.ts";
import type { AcceptStage } from "./accept-shapes.ts";
import type { BulkPayload, BulkRun } from "./bulk.ts";
import type { BulkFloor } from "./bulk-floor.ts";
import type { BundleSize } from "./bundle.ts";
import type { CacheStage } from "./cache-stage.ts";
import type { CostStage } from "./cost-stage.ts";
import type { RoundTrip } from "./d1-shim.ts";
import type { ExportStage } from "./export-stage.ts";
import type { SqlFloor } from "./floors.ts";
import type { LoadResult, Probe } from "./load.ts";
import type { machine } from "./machine.ts";
import type { MemoryStage } from "./memory-stage.ts";
import type { PlansStage } from "./plans-stage.ts";
import type { RttStage } from "./rtt-stage.ts";
import type { WritesStage } from "./writes-stage.ts";

export interface Capture {
  key: string;
  status: number;
  bytes: number;
  serverTiming: string | null;
  trips: RoundTrip[];
  inProcess: {
    iterations: number;
    medianMs: number | null;
    /** Median CPU time of the process per request (absent in results from before it was measured). */
    cpuMedianMs?: number | null;
    /** Median ms of each phase the responses reported in Server-Timing (src/lib/phase-clock.ts). */
    phases?: Record<string, number | null>;
  };
}

/**
 * Worker CPU per request of one scenario: the served bundle's `fetch` in Node over
 * node:sqlite; CPU = in-process − SQL floor, split by the phases the responses report.
 */
export interface CpuScenario {
  key: string;
  kind: Scenario["kind"];
  status: number;
  bytes: number;
  sqlRows: number | null;
  roundTrips: number;
  statements: number | null;
  sqlFloorMs: number | null;
  inProcessMs: number | null;
  /** The process's CPU time per request (median): the headline's in-process time when measured. */
  inProcessCpuMs?: number | null;
  iterations: number;
  /** Median ms of each phase (src/lib/phase-clock.ts). */
  phases: Record<string, number | null>;
  /** What workerd spends decoding D1's answers to one request (bench/lib/d1-decode.ts); absent in older runs. */
  d1DecodeWorkerdMs?: number | null;
}

export interface CpuStage {
  /** How the stage ran when it is newer than the rest of the results (`--only cpu`). */
  run?: string;
  budgetMs: number;
  scenarios: CpuScenario[];
}

export interface ReadResult {
  scenario: Scenario;
  probe: Probe;
  loads: LoadResult[];
  /** The HTTP floor measured right before each of `loads` (same concurrency). */
  pairedFloors?: LoadResult[];
  capture?: Capture;
  sqlFloor?: SqlFloor;
}

/** A bulk job run with the bundle in Node (no workerd, no local queue): the engine's own cost. */
export interface InProcessBulk {
  key: string;
  status: string;
  acceptMs: number;
  wallMs: number;
  /** This process's CPU time over the job (the bundle's JavaScript and node:sqlite). */
  cpuMs?: number;
  messages: number;
  d1CallsPerMessage: number;
  /** Time of each queue message (a chunk, or a replay's continuation), ms. */
  messageMs?: { median: number; max: number };
  succeeded: number;
  failed: number;
}

export interface BulkResult {
  key: "products_upsert" | "variants_update" | "variants_clear_prices" | "variants_clear_translations";
  title: string;
  payloadBytes: number;
  payload: Omit<BulkPayload, "body">;
  /** Chunks the server split the job into (its jobs row). */
  chunks?: number;
  run?: BulkRun;
  floor?: BulkFloor;
  inProcess?: InProcessBulk;
  error?: string;
}

export interface Results {
  mode: "quick" | "full";
  scale: number;
  machine: ReturnType<typeof machine>;
  options: Record<string, unknown>;
  setup: Record<string, number>;
  data: Record<string, number>;
  reads: ReadResult[];
  bulk: BulkResult[];
  /** The `--only bulk` run that measured `bulk` and `compareBulk`, when not the run in the header. */
  bulkRun?: string;
  /** The same bulk jobs on the compare catalog (`--compare-scale`). */
  compareBulk?: { scale: number; jobs: BulkResult[] };
  bundle?: BundleSize;
  /** Accept time of worst-case bulk bodies, and the bulk path's heap. */
  accept?: AcceptStage;
  memory?: MemoryStage;
  /** The simulated deployment (reads and 10 MB jobs per D1 round-trip time). */
  rtt?: RttStage;
  /** Worker CPU per request (also measured by a full run's reads). */
  cpu?: CpuStage;
  /** D1 rows read per read at two catalog sizes, and bytes per product. */
  cost?: CostStage;
  /** Bulk updates on catalogs grown by pushes under the demo seed's planner statistics. */
  plans?: PlansStage;
  exports?: ExportStage;
  /** The edge cache: hit, miss and bypass per read, and the storefront workload with it on and off. */
  cache?: CacheStage;
  /** Rows written per record of bulk feeds sent first, re-sent unchanged and with a tenth changed. */
  writes?: WritesStage;
  errors: string[];
  totalSeconds: number;
}

/** The derived numbers of one read scenario at one concurrency (see RESULTS.md "Method"). */
export interface Derived {
  apiMs: number;
  httpFloorMs: number;
  sqlFloorMs: number | null;
  overheadMs: number | null;
  ratio: number | null;
}

/**
 * c=1: the median latency of the route and of the HTTP floor. c>1: the time per request under
 * saturation (1000 / req/s) of both, the cost each request adds to a busy server.
 */
export function derive(read: ReadResult, load: LoadResult, standaloneFloor?: LoadResult): Derived {
  const httpFloor = read.pairedFloors?.find((l) => l.connections === load.connections) ?? standaloneFloor;
  const at = (l: LoadResult) => (l.connections === 1 ? l.p50Ms : 1000 / l.rps);
  const apiMs = at(load);
  const httpFloorMs = httpFloor ? at(httpFloor) : 0;
  const sqlFloorMs = read.sqlFloor?.medianMs ?? null;
  if (sqlFloorMs === null) return { apiMs, httpFloorMs, sqlFloorMs, overheadMs: null, ratio: null };
  return {
    apiMs,
    httpFloorMs,
    sqlFloorMs,
    overheadMs: apiMs - httpFloorMs - sqlFloorMs,
    ratio: apiMs / (httpFloorMs + sqlFloorMs),
  };
}

export const roundTripsOf = (read: ReadResult) =>
  read.loads.find((l) => l.roundTrips !== null)?.roundTrips ?? read.probe.roundTrips;
