import type { Scenario } from "../scenarios.ts";
import { type SqlFloor, sqlFloor } from "./floors.ts";
import { runHarness } from "./harness.ts";
import { load, probe } from "./load.ts";
import { log } from "./log.ts";
import type { Capture, CpuStage, ReadResult } from "./results.ts";

/** Every scenario (reads and floors) at each concurrency against the running server. */
export async function measureReads(o: {
  origin: string;
  secret: string;
  scenarios: Scenario[];
  connections: number[];
  seconds: number;
  errors: string[];
}): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  const floor = o.scenarios.find((s) => s.kind === "http-floor");
  const run = async (scenario: Scenario, connections: number, seconds: number) => {
    const result = await load({
      origin: o.origin,
      path: scenario.path,
      secret: o.secret,
      connections,
      seconds,
    });
    const unexpected = scenario.expectStatus === 200 ? result.non2xx : 0;
    if (unexpected > 0 || result.errors > 0) {
      o.errors.push(
        `${scenario.key} c=${connections}: ${unexpected} non-2xx, ${result.errors} errors/timeouts`,
      );
    }
    log(
      `${scenario.key} c=${connections}: ${result.rps.toFixed(1)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${result.roundTrips ?? "?"} D1 round trips`,
    );
    return result;
  };
  for (const scenario of o.scenarios) {
    const first = await probe(o.origin, scenario.path, o.secret);
    if (first.status !== scenario.expectStatus) {
      o.errors.push(`${scenario.key}: expected ${scenario.expectStatus}, got ${first.status}`);
    }
    const loads = [];
    const pairedFloors = [];
    for (const connections of o.connections) {
      // The HTTP floor right before each read run: other load on the machine drifts, pairs do not.
      if (floor && scenario.kind === "read")
        pairedFloors.push(await run(floor, connections, Math.max(1, o.seconds / 2)));
      loads.push(await run(scenario, connections, o.seconds));
    }
    out.push({ scenario, probe: first, loads, pairedFloors });
  }
  return out;
}

/**
 * The statements and in-process time of each scenario (the served bundle run in Node over the
 * recording shim, in a child process), then their SQL floor on the same copy of the database: the
 * Worker CPU stage, which needs no server (`--only cpu`).
 */
export function captureCpu(o: {
  scenarios: Scenario[];
  bundle: string;
  floorFile: string;
  secret: string;
  budgetMs: number;
  errors: string[];
}): { scenario: Scenario; capture: Capture; sqlFloor?: SqlFloor }[] {
  const input = {
    bundle: o.bundle,
    sqliteFile: o.floorFile,
    secret: o.secret,
    budgetMs: o.budgetMs,
    scenarios: o.scenarios.map((s) => ({ key: s.key, path: s.path })),
  };
  const run = runHarness<Capture[]>("capture.ts", input, { maxBufferMb: 512 });
  if ("failure" in run) {
    o.errors.push(`cpu stage: SQL capture failed ${run.failure}`);
    return [];
  }
  const captures = run.output;
  const out = [];
  for (const scenario of o.scenarios) {
    const capture = captures.find((c) => c.key === scenario.key);
    if (!capture) continue;
    if (capture.status !== scenario.expectStatus) {
      o.errors.push(
        `cpu stage: ${scenario.key}: the bundle in Node answered ${capture.status} where ${scenario.expectStatus} was expected; no SQL floor`,
      );
      out.push({ scenario, capture });
      continue;
    }
    const floor = sqlFloor(o.floorFile, capture.trips, o.budgetMs);
    log(
      `${scenario.key}: ${floor.statements} statements in ${capture.trips.length} round trips, SQL floor ${floor.medianMs.toFixed(3)} ms, in-process ${capture.inProcess.medianMs?.toFixed(2)} ms`,
    );
    out.push({ scenario, capture, sqlFloor: floor });
  }
  return out;
}

/** The Worker CPU stage's numbers per scenario, as results.json keeps them. */
export function cpuStage(measured: ReturnType<typeof captureCpu>, budgetMs: number): CpuStage {
  return {
    budgetMs,
    scenarios: measured.map(({ scenario, capture, sqlFloor }) => ({
      key: scenario.key,
      kind: scenario.kind,
      status: capture.status,
      bytes: capture.bytes,
      sqlRows: sqlFloor?.rows ?? null,
      roundTrips: capture.trips.length,
      statements: sqlFloor?.statements ?? null,
      sqlFloorMs: sqlFloor?.medianMs ?? null,
      inProcessMs: capture.inProcess.medianMs,
      inProcessCpuMs: capture.inProcess.cpuMedianMs ?? null,
      iterations: capture.inProcess.iterations,
      phases: capture.inProcess.phases ?? {},
    })),
  };
}

/**
 * The Worker CPU stage on the read scenarios measured over HTTP: each read also gets its statements
 * and SQL floor, and its D1 round trips are checked against Server-Timing.
 */
export function captureAndFloors(o: {
  reads: ReadResult[];
  bundle: string;
  floorFile: string;
  secret: string;
  budgetMs: number;
  errors: string[];
}): CpuStage {
  const measured = captureCpu({ ...o, scenarios: o.reads.map((r) => r.scenario) });
  for (const read of o.reads) {
    const m = measured.find((x) => x.scenario.key === read.scenario.key);
    if (!m) continue;
    read.capture = m.capture;
    read.sqlFloor = m.sqlFloor;
    const served = read.loads[0]?.roundTrips ?? read.probe.roundTrips;
    if (m.sqlFloor && served !== null && served !== m.capture.trips.length) {
      o.errors.push(
        `${read.scenario.key}: Server-Timing reports ${served} D1 round trips, the capture saw ${m.capture.trips.length} D1 calls`,
      );
    }
  }
  return cpuStage(measured, o.budgetMs);
}
