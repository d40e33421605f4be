import { Agent, type IncomingHttpHeaders, request } from "node:http";
import autocannon from "autocannon";
import { PHASES } from "../../src/lib/phase-clock.ts";

export interface ServerTiming {
  appMs: number | null;
  roundTrips: number | null;
  /** D1 rows read (`d1-rows`), as D1 bills them. */
  rowsRead: number | null;
  /**
   * The request's time outside its D1 calls as the serving runtime's own clock measured it: the
   * sum of its phases but `d1-wait` (null when it reported none).
   */
  outsideD1Ms: number | null;
}

const OUTSIDE_D1 = PHASES.filter((phase) => phase !== "d1-wait");

/** `app;dur=12, d1;desc="round trips";dur=3, validate;dur=0.5` → {appMs: 12, roundTrips: 3, …}, parsed once. */
export function parseServerTiming(header: string | null | undefined): ServerTiming {
  const durations = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = /dur=([\d.]+)/.exec(params.join(";"))?.[1];
    if (name && dur !== undefined) durations.set(name, Number(dur));
  }
  let outsideD1Ms: number | null = null;
  for (const phase of OUTSIDE_D1) {
    const dur = durations.get(phase);
    if (dur !== undefined) outsideD1Ms = (outsideD1Ms ?? 0) + dur;
  }
  return {
    appMs: durations.get("app") ?? null,
    roundTrips: durations.get("d1") ?? null,
    rowsRead: durations.get("d1-rows") ?? null,
    outsideD1Ms,
  };
}

export interface Probe extends ServerTiming {
  status: number;
  bytes: number;
  /** The edge cache's `Cache-Status` (`storefront; hit`, `storefront; fwd=miss`, …). */
  cacheStatus?: string | null;
}

/** A few sequential requests (warm-up); returns what the last one said. */
export async function probe(
  origin: string,
  path: string,
  secret: string,
  times = 5,
  headers: Record<string, string> = {},
): Promise<Probe> {
  let last: Probe = { status: 0, bytes: 0, ...parseServerTiming(null) };
  for (let i = 0; i < times; i++) {
    const res = await fetch(origin + path, { headers: { authorization: `Bearer ${secret}`, ...headers } });
    const body = await res.arrayBuffer();
    last = {
      status: res.status,
      bytes: body.byteLength,
      cacheStatus: res.headers.get("cache-status"),
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
   * Mean time outside D1 calls per response, the slowest 1 % left out (`meanOutsideD1`).
   */
  outsideD1Ms?: number | null;
  /** Responses per `Cache-Status` value (`storefront; hit`, …); absent in older results. */
  cacheStatus?: Record<string, number>;
}

/**
 * The mean of requests' time outside D1 (`ServerTiming.outsideD1Ms`), the slowest 1 % left out
 * (none of fewer than 100): workerd's clock is wall time, so a request descheduled on this shared
 * machine reads tens of milliseconds where its Worker ran for less than one, and one such request
 * in a 2-second run of 120 moved a hit's mean from 0.6 to 1.2 ms. The clock moves in whole
 * milliseconds, so a median would round; the mean of the rest is not biased by the steps.
 */
export function meanOutsideD1(values: number[]): number | null {
  if (values.length === 0) return null;
  const kept = [...values].sort((a, b) => a - b).slice(0, values.length - Math.floor(values.length / 100));
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

interface LoadOptions {
  origin: string;
  path: string;
  secret: string;
  connections: number;
  seconds: number;
  /** More request headers (`Cache-Control: no-cache` reads past the edge cache). */
  headers?: Record<string, string>;
}

/** The client of the latency runs (c=1), recorded with a run's results (runs before it used autocannon). */
export const LATENCY_CLIENT = "node:http";

/**
 * Requests to one path for `seconds` at `connections`. At one connection (the latency runs) the
 * requests go one at a time through Node's own HTTP client (`sequentialLoad`); at more, through
 * autocannon.
 */
export function load(o: LoadOptions): Promise<LoadResult> {
  return o.connections === 1 ? sequentialLoad(o) : autocannonLoad(o);
}

/** What a run's responses said (latency, `Cache-Status`, `Server-Timing`), whichever client sent them. */
function responseLog() {
  const latencies: number[] = [];
  const cacheStatus: Record<string, number> = {};
  const trips: number[] = [];
  const appMs: number[] = [];
  const outsideSum: number[] = [];
  return {
    latencies,
    /** One response's headers, `header(name)` by lower-case name. */
    add(header: (name: string) => string | undefined) {
      const status = header("cache-status") ?? "none";
      cacheStatus[status] = (cacheStatus[status] ?? 0) + 1;
      const timing = parseServerTiming(header("server-timing"));
      if (timing.roundTrips !== null) trips.push(timing.roundTrips);
      if (timing.appMs !== null) appMs.push(timing.appMs);
      if (timing.outsideD1Ms !== null) outsideSum.push(timing.outsideD1Ms);
    },
    result(o: LoadOptions, seconds: number, non2xx: number, errors: number): LoadResult {
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
        non2xx,
        errors,
        roundTrips: trips.length > 0 ? percentile(trips, 50) : null,
        appMs: appMs.length > 0 ? percentile(appMs, 50) : null,
        outsideD1Ms: meanOutsideD1(outsideSum),
        cacheStatus,
      };
    },
  };
}

/**
 * One request at a time on one keep-alive connection, through Node's HTTP client (its parser,
 * llhttp, is native): the latency of each, from sending it to the end of its body. autocannon
 * parses answers in JavaScript (http-parser-js), which costs time per byte of the client's own: on
 * this machine the cached 100-product page (106 KB gzip) took 2–4 ms longer than a 271-byte answer
 * through autocannon and no longer (−0.1 to −0.6 ms) through this client, the same server in the
 * same minute, directly on the Worker's socket and through wrangler dev's proxy alike. A latency
 * run measures the server, so it uses this client.
 */
async function sequentialLoad(o: LoadOptions): Promise<LoadResult> {
  const [result] = await alternatingLoad(o, [o.path]);
  return result as LoadResult;
}

/**
 * `paths` requested in turn, one request at a time on one keep-alive connection (as
 * `sequentialLoad`), for `seconds` in all: one result per path. Two latencies compared this way
 * (a hit against the HTTP floor) see the same moments of a shared machine, where two runs one
 * after the other see whatever load each of them met.
 */
export async function alternatingLoad(
  o: Omit<LoadOptions, "path" | "connections">,
  paths: string[],
): Promise<LoadResult[]> {
  const logs = paths.map(() => ({ log: responseLog(), non2xx: 0, errors: 0 }));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${o.secret}`, ...o.headers };
  const started = performance.now();
  try {
    for (let turn = 0; performance.now() - started < o.seconds * 1000; turn++) {
      const at = turn % paths.length;
      const out = logs[at] as (typeof logs)[number];
      const sent = performance.now();
      try {
        const res = await getWhole(new URL(paths[at] as string, o.origin), headers, agent);
        out.log.latencies.push(performance.now() - sent);
        if (res.status < 200 || res.status > 299) out.non2xx++;
        out.log.add((name) => {
          const value = res.headers[name];
          return Array.isArray(value) ? value.join(", ") : value;
        });
      } catch {
        out.errors++;
      }
    }
  } finally {
    agent.destroy();
  }
  // Each path's seconds are those its own requests took.
  return logs.map((l, i) => {
    const seconds = l.log.latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
    return l.log.result({ ...o, path: paths[i] as string, connections: 1 }, seconds, l.non2xx, l.errors);
  });
}

/** A GET whose body is read to its end (and dropped). */
const getWhole = (url: URL, headers: Record<string, string>, agent: Agent) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = request(url, { headers, agent, timeout: 60_000 }, (res) => {
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on("error", reject);
      res.resume();
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });

/**
 * autocannon against one path for `seconds` at `connections`; latencies are taken from its
 * per-response event (sub-millisecond, where its histogram rounds to whole milliseconds).
 */
async function autocannonLoad(o: LoadOptions): Promise<LoadResult> {
  const log = responseLog();
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
            headers: { authorization: `Bearer ${o.secret}`, ...o.headers },
            onResponse: (_status, _body, _context, headers) => {
              // Raw header names: the case the server sent them in.
              log.add((wanted) => {
                const name = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === wanted);
                return name ? String(headers?.[name]) : undefined;
              });
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => log.latencies.push(responseTime));
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return log.result(o, seconds, result.non2xx, result.errors + result.timeouts);
}
