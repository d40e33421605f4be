import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, CacheOutcome } from "../env.ts";
import { acceptsGzip, clientAcceptEncoding, gzip } from "../http/accept-encoding.ts";
import { conditional } from "../http/etag.ts";
import type { CacheKey, FillProps } from "./cache-key.ts";
import { cacheKey } from "./cache-key.ts";
import { CACHED_READS, FILL_HEADER, fill, isFillCall } from "./fill.ts";
import { currentGenerations } from "./generations.ts";
import { localCache } from "./memory-cache.ts";
import { absorbServerTiming } from "./server-timing.ts";

/** Headers of one computation, never served again: a hit gets its own (and no bookmark). */
const PER_REQUEST = new Set(["x-request-id", "server-timing", "x-d1-bookmark", "age", FILL_HEADER]);

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** `body` is gzip-compressed (a hit sent to a client that accepts it). */
  gzipped?: boolean;
  hit: boolean;
  /** Seconds since the answer was stored (hits only). */
  age: number;
}

type Entrypoint = (options: { props: FillProps }) => Fetcher;

/**
 * The gateway's cache step, after authentication, scopes and the rate limit (a refused key never
 * reaches a cached body). A cacheable read is answered by the cached read entrypoint, called
 * through `ctx.exports` without the API key, with the key's parts in `ctx.props`. Deployed,
 * Workers Cache sits in front of that entrypoint; in development (`npm run dev`, tests, the
 * benchmark) the local cache of the same keys and lifetimes does (src/edge/memory-cache.ts).
 * Inside that entrypoint, this step computes the answer for the cache instead (src/edge/fill.ts).
 */
export const edgeCache: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isFillCall(c)) return fill(c, next);
  const policy = c.get("routeMeta").cache;
  if (!policy) return next();
  const entrypoint = entrypointOf(c);
  const skip = entrypoint ? skipped(c) : "bypass";
  if (skip || !entrypoint) {
    c.set("cacheOutcome", skip ?? "bypass");
    return next();
  }
  const generations = await currentGenerations(c);
  const key = cacheKey(c.req.url, policy, generations);
  const call = () => callEntrypoint(entrypoint, key, generations.bookmark);
  const answer =
    c.env.ENVIRONMENT === "production"
      ? await throughWorkersCache(c, call)
      : await throughLocalCache(c, key, call);
  c.set("cacheOutcome", answer.hit ? "hit" : "miss");
  return conditional(c.req.header("if-none-match"), respond(answer));
};

/** Why the cache is not consulted: turned off, or the request asks for the current data. */
function skipped(c: Context<AppEnv>): CacheOutcome | undefined {
  if (c.env.EDGE_CACHE === "off") return "bypass";
  // A bookmark asks to read at least its own writes: only D1 knows, so read-your-writes stays exact.
  if (c.req.header("x-d1-bookmark") !== undefined) return "request";
  if (/(^|,)\s*no-(cache|store)\b/i.test(c.req.header("cache-control") ?? "")) return "request";
  return undefined;
}

/** The databases the Worker's own entrypoints were handed (see `servedDatabase`). */
const servedDatabases = new WeakSet<D1Database>();

/**
 * Records the database the default entrypoint hands the app. The cached read entrypoint reads that
 * one: an app called with another (a test's failing database) is answered without the cache.
 */
export function servedDatabase(db: D1Database): void {
  servedDatabases.add(db);
}

function entrypointOf(c: Context<AppEnv>): Entrypoint | undefined {
  if (!servedDatabases.has(c.env.DB)) return undefined;
  try {
    return (c.executionCtx.exports as unknown as Record<string, Entrypoint | undefined>)[CACHED_READS];
  } catch {
    return undefined; // no execution context (`app.request` in unit tests): answered uncached
  }
}

/** A call with only the key: no API key, no conditional header; the generations' bookmark, so the fill reads data at least that fresh. */
interface Call {
  response: Response;
  nonce: string;
}

async function callEntrypoint(entrypoint: Entrypoint, key: CacheKey, bookmark: string | null): Promise<Call> {
  const nonce = crypto.randomUUID();
  const headers = new Headers({ [FILL_HEADER]: nonce });
  if (bookmark) headers.set("x-d1-bookmark", bookmark);
  const response = await entrypoint({ props: key.props }).fetch(new Request(key.url, { headers }));
  return { response, nonce };
}

/** Deployed: Workers Cache answers, or runs the entrypoint, which echoes the nonce. */
async function throughWorkersCache(c: Context<AppEnv>, call: () => Promise<Call>): Promise<Answer> {
  const { response, nonce } = await call();
  const body = new Uint8Array(await response.arrayBuffer());
  const hit = response.headers.get(FILL_HEADER) !== nonce;
  if (!hit) computed(c, response);
  return {
    status: response.status,
    headers: response.headers,
    body,
    hit,
    age: Number(response.headers.get("age") ?? 0),
  };
}

/** Development: the local cache answers while fresh, else the entrypoint fills it for its `max-age`. */
async function throughLocalCache(
  c: Context<AppEnv>,
  key: CacheKey,
  call: () => Promise<Call>,
): Promise<Answer> {
  const now = Date.now();
  const stored = localCache.get(key.id, now);
  if (stored) {
    const age = Math.floor((now - stored.storedAt) / 1000);
    const gzipped = stored.gzip !== undefined && acceptsGzip(clientAcceptEncoding(c.req.raw));
    const body = gzipped ? (stored.gzip as Uint8Array) : stored.body;
    return { status: stored.status, headers: new Headers(stored.headers), body, gzipped, hit: true, age };
  }
  const { response } = await call();
  const body = new Uint8Array(await response.arrayBuffer());
  computed(c, response);
  const seconds = storableSeconds(response);
  if (seconds > 0) {
    const headers = [...response.headers].filter(([name]) => !PER_REQUEST.has(name));
    // Counted from before the computation: an entry never outlives the end its answer set.
    const entry = { status: response.status, headers, body, storedAt: now, expiresAt: now + seconds * 1000 };
    localCache.put(key.id, entry);
    // Compressed after this answer is sent, so the miss does not wait for it.
    if (body.byteLength >= GZIP_MIN_BYTES)
      c.executionCtx.waitUntil(
        gzip(body).then((compressed) => localCache.addGzip(key.id, entry, compressed)),
      );
  }
  return { status: response.status, headers: response.headers, body, hit: false, age: 0 };
}

/** Smaller answers gain nothing worth the `Content-Encoding` from compression. */
const GZIP_MIN_BYTES = 1024;

/** What the entrypoint allows a cache to keep: `public, max-age=N` on a 200; 0 for anything else. */
function storableSeconds(response: Response): number {
  if (response.status !== 200) return 0;
  const match = /(?:^|,)\s*max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "");
  return match ? Number(match[1]) : 0;
}

/** A computed answer's request id (its problem body names it) and D1 work become this request's. */
function computed(c: Context<AppEnv>, response: Response) {
  const id = response.headers.get("x-request-id");
  if (id) c.set("requestId", id);
  absorbServerTiming(c, response.headers.get("server-timing"));
}

/** The client's answer: the stored one, without what belonged to its computation. */
function respond(answer: Answer): Response {
  const headers = new Headers();
  for (const [name, value] of answer.headers) if (!PER_REQUEST.has(name)) headers.set(name, value);
  if (answer.hit) headers.set("Age", String(answer.age));
  else {
    const bookmark = answer.headers.get("x-d1-bookmark");
    if (bookmark) headers.set("x-d1-bookmark", bookmark);
  }
  if (!answer.gzipped) return new Response(answer.body, { status: answer.status, headers });
  headers.set("Content-Encoding", "gzip");
  // `manual`: the body is gzip already; the runtime sends it as it is.
  return new Response(answer.body, { status: answer.status, headers, encodeBody: "manual" });
}
