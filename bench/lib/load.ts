import autocannon from "autocannon";
import { PHASES } from "../../src/lib/phase-clock.ts";

export interface ServerTiming {
  appMs: number | null;
  roundTrips: number | null;
  /** D1 rows read (`d1-rows`), as D1 bills them. */
  rowsRead: number | null;
}

/** `app;dur=12, d1;desc="round trips";dur=3` → {appMs: 12, roundTrips: 3}. */
export function parseServerTiming(header: string | null | undefined): ServerTiming {
  const metric = (name: string) => {
    const part = (header ?? "").split(",").find((p) => p.trim().startsWith(`${name};`));
    const dur = part ? /dur=([\d.]+)/.exec(part)?.[1] : undefined;
    return dur === undefined ? null : Number(dur);
  };
  return { appMs: metric("app"), roundTrips: metric("d1"), rowsRead: metric("d1-rows") };
}

const OUTSIDE_D1 = PHASES.filter((phase) => phase !== "d1-wait");

/**
 * The request's time outside its D1 calls as the serving runtime's own clock measured it: the sum
 * of its `Server-Timing` phases but `d1-wait` (null when it reported none).
 */
function outsideD1Ms(header: string | null | undefined): number | null {
  let sum = 0;
  let seen = false;
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!OUTSIDE_D1.includes(name as (typeof OUTSIDE_D1)[number])) continue;
    const dur = /dur=([\d.]+)/.exec(params.join(";"))?.[1];
    if (dur === undefined) continue;
    sum += Number(dur);
    seen = true;
  }
  return seen ? sum : null;
}

export interface Probe extends ServerTiming {
  status: number;
  bytes: number;
}

/** A few sequential requests (warm-up); returns what the last one said. */
export async function probe(origin: string, path: string, secret: string, times = 5): Promise<Probe> {
  let last: Probe = { status: 0, bytes: 0, appMs: null, roundTrips: null, rowsRead: null };
  for (let i = 0; i < times; i++) {
    const res = await fetch(origin + path, { headers: { authorization: `Bearer ${secret}` } });
    const body = await res.arrayBuffer();
    last = {
      status: res.status,
      bytes: body.byteLength,
      ...parseServerTiming(res.headers.get("server-timing")),
    };
  }
  return last;
}

export interface LoadResult {
  connections: number;
  requests: number;
  seconds: number;
  rps: number;
  /** Wall time per request at this concurrency: seconds × connections / requests. */
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Median D1 round trips and app time the responses reported in Server-Timing. */
  roundTrips: number | null;
  appMs: number | null;
  /**
   * Mean time outside D1 calls per response (`outsideD1Ms`): workerd's clock moves in whole
   * milliseconds, so a median would round; the mean of many is not biased by the steps.
   */
  outsideD1Ms?: number | null;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/**
 * autocannon against one path for `seconds` at `connections`; latencies are taken from its
 * per-response event (sub-millisecond, where its histogram rounds to whole milliseconds).
 */
export async function load(o: {
  origin: string;
  path: string;
  secret: string;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const trips: number[] = [];
  const appMs: number[] = [];
  const outsideSum: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: o.origin,
        connections: o.connections,
        duration: o.seconds,
        timeout: 60,
        requests: [
          {
            method: "GET",
            path: o.path,
            headers: { authorization: `Bearer ${o.secret}` },
            onResponse: (_status, _body, _context, headers) => {
              // Raw header names: the case the server sent them in.
              const name = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === "server-timing");
              const timing = parseServerTiming(name ? String(headers?.[name]) : undefined);
              if (timing.roundTrips !== null) trips.push(timing.roundTrips);
              if (timing.appMs !== null) appMs.push(timing.appMs);
              const outside = outsideD1Ms(name ? String(headers?.[name]) : undefined);
              if (outside !== null) outsideSum.push(outside);
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  const requests = latencies.length;
  latencies.sort((a, b) => a - b);
  trips.sort((a, b) => a - b);
  appMs.sort((a, b) => a - b);
  return {
    connections: o.connections,
    requests,
    seconds,
    rps: requests / seconds,
    meanMs: requests === 0 ? 0 : (seconds * 1000 * o.connections) / requests,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    roundTrips: trips.length > 0 ? percentile(trips, 50) : null,
    appMs: appMs.length > 0 ? percentile(appMs, 50) : null,
    outsideD1Ms: outsideSum.length > 0 ? outsideSum.reduce((a, b) => a + b, 0) / outsideSum.length : null,
  };
}
