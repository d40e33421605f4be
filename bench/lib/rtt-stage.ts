import type { Scenario } from "../scenarios.ts";
import { productsPayload, runBulk, variantsPayload } from "./bulk.ts";
import { openDb } from "./database.ts";
import { load, probe } from "./load.ts";
import { log } from "./log.ts";
import { startDevServer, stopDevServer } from "./server.ts";

/**
 * The simulated deployment: `wrangler dev` restarted once per D1 round-trip time, with
 * `SIMULATED_D1_RTT_MS` and `SIMULATED_QUEUE_DELAY_MS` passed as `--var` (src/simulated-latency.ts:
 * every D1 call of the served bundle waits the round trip, every queue batch the delivery delay),
 * then each read scenario at c=1 for a short run and the two 10 MB jobs, POST to final state.
 */

/** The round trip the targets are set at: a read within `trips × 25 ms + 10 ms`, the variants job within 10 s. */
export const TARGET_RTT_MS = 25;
export const READ_SLACK_MS = 10;
export const VARIANTS_JOB_TARGET_MS = 10_000;

export interface RttRead {
  key: string;
  title: string;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  roundTrips: number | null;
  /** The HTTP floor or `GET /store` (one trivial round trip): what the setting costs by itself, no target. */
  reference?: boolean;
}

interface RttJob {
  key: "products_upsert" | "variants_update";
  records: number;
  payloadBytes: number;
  status?: string;
  wallMs?: number;
  summary?: Record<string, number>;
  error?: string;
}

interface RttSetting {
  rttMs: number;
  startMs: number;
  reads: RttRead[];
  jobs: RttJob[];
}

export interface RttStage {
  queueDelayMs: number;
  readSeconds: number;
  bulkBytes: number;
  settings: RttSetting[];
  /** Set when the stage ran alone (`--only rtt`). */
  run?: string;
}

/** A read's allowed p50 at `rttMs`: its D1 round trips, each paying the RTT, plus the slack. */
export const readLimitMs = (read: RttRead, rttMs: number) =>
  read.roundTrips === null ? null : read.roundTrips * rttMs + READ_SLACK_MS;

export async function runRttStage(o: {
  rtts: number[];
  queueDelayMs: number;
  persistTo: string;
  config: string;
  secret: string;
  logFile: string;
  scenarios: Scenario[];
  readSeconds: number;
  bulkBytes: number;
  /** A pre-job copy of the catalog: the variant ids the variants job updates. */
  floorFile: string;
  runId: string;
  timeoutMs: number;
  errors: string[];
}): Promise<RttStage> {
  const db = openDb(o.floorFile, true);
  const variantIds = (db.prepare("SELECT id FROM variants ORDER BY id").all() as { id: number }[]).map(
    (r) => r.id,
  );
  db.close();
  const variants = variantsPayload(variantIds, o.bulkBytes);
  const settings: RttSetting[] = [];
  for (const rttMs of o.rtts) {
    const server = await startDevServer({
      persistTo: o.persistTo,
      config: o.config,
      secret: o.secret,
      logFile: o.logFile,
      vars: {
        SIMULATED_D1_RTT_MS: String(rttMs),
        SIMULATED_QUEUE_DELAY_MS: String(o.queueDelayMs),
      },
    });
    log(
      `rtt ${rttMs} ms (queue delay ${o.queueDelayMs} ms): wrangler dev answering after ${server.startMs} ms`,
    );
    const setting: RttSetting = { rttMs, startMs: server.startMs, reads: [], jobs: [] };
    settings.push(setting);
    try {
      // The floors first: what a request without D1 and one with a trivial round trip cost here.
      const references = o.scenarios.filter((s) => s.kind !== "read");
      for (const scenario of [...references, ...o.scenarios.filter((s) => s.kind === "read")]) {
        await probe(server.origin, scenario.path, o.secret, 3);
        const r = await load({
          origin: server.origin,
          path: scenario.path,
          secret: o.secret,
          connections: 1,
          seconds: o.readSeconds,
        });
        const unexpected = scenario.expectStatus === 200 ? r.non2xx : 0;
        if (unexpected > 0 || r.errors > 0)
          o.errors.push(`rtt ${rttMs} ${scenario.key}: ${unexpected} non-2xx, ${r.errors} errors/timeouts`);
        setting.reads.push({
          key: scenario.key,
          title: scenario.title,
          p50Ms: r.p50Ms,
          p99Ms: r.p99Ms,
          requests: r.requests,
          roundTrips: r.roundTrips,
          ...(scenario.kind === "read" ? {} : { reference: true }),
        });
        log(
          `rtt ${rttMs} ${scenario.key}: p50 ${r.p50Ms.toFixed(1)} ms, ${r.roundTrips ?? "?"} D1 round trips`,
        );
      }
      const jobs = [
        {
          key: "products_upsert" as const,
          path: "/api/v1/products/bulk",
          // Creates: product internal ids and SKUs of their own at each setting.
          payload: productsPayload(`${o.runId}r${rttMs}`, o.bulkBytes),
        },
        { key: "variants_update" as const, path: "/api/v1/variants/bulk", payload: variants },
      ];
      for (const job of jobs) {
        const out: RttJob = {
          key: job.key,
          records: job.payload.records,
          payloadBytes: Buffer.byteLength(job.payload.body),
        };
        setting.jobs.push(out);
        try {
          const run = await runBulk({
            origin: server.origin,
            path: job.path,
            secret: o.secret,
            payload: job.payload,
            timeoutMs: o.timeoutMs,
          });
          out.status = run.status;
          out.wallMs = run.wallMs;
          out.summary = run.summary;
          if (run.status !== "done") o.errors.push(`rtt ${rttMs} ${job.key}: job ended ${run.status}`);
          log(`rtt ${rttMs} ${job.key}: ${run.status} in ${(run.wallMs / 1000).toFixed(2)} s`);
        } catch (err) {
          out.error = (err as Error).message;
          o.errors.push(`rtt ${rttMs} ${job.key}: ${out.error}`);
        }
      }
    } finally {
      await stopDevServer(server);
    }
  }
  return { queueDelayMs: o.queueDelayMs, readSeconds: o.readSeconds, bulkBytes: o.bulkBytes, settings };
}
