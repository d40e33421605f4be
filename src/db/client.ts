import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Db } from "../env.ts";
import { fastBatch } from "./fast-batch.ts";
import * as schema from "./schema/index.ts";

export const createDb = (d1: D1Database | D1DatabaseSession): Db => drizzle(d1 as D1Database, { schema });

const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * Binds the request to a D1 session: reads may be served by a replica, and a client that sends
 * back the bookmark it got reads data at least as fresh as its own last write. A bookmark D1
 * rejects falls back to the primary instead of failing the request.
 */
export const dbSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  const fallback = c.req.method === "GET" ? "first-unconstrained" : "first-primary";
  let session: D1DatabaseSession | undefined;
  if (typeof c.env.DB.withSession === "function") {
    try {
      session = c.env.DB.withSession(sent && /^[\w-]{1,200}$/.test(sent) ? sent : fallback);
    } catch {
      session = c.env.DB.withSession(fallback);
    }
  }
  c.set("db", createDb(session ?? c.env.DB));
  await next();
  const bookmark = session?.getBookmark();
  if (bookmark && c.get("dbStats").roundTrips > 0) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};

/** Runs independent queries as one D1 round trip (a `db.batch` is also a transaction). */
export async function batch<T extends readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]>(
  c: Context<AppEnv>,
  queries: T,
) {
  c.get("dbStats").roundTrips++;
  const phases = c.get("phases");
  const results = await fastBatch(c.get("db"), queries, phases);
  // What a handler does with a batch's results is rendering them.
  phases?.enter("render");
  return results;
}

/** Runs any number of queries in one round trip (none: no round trip), answering their results untyped. */
export async function batchAll(c: Context<AppEnv>, queries: BatchItem<"sqlite">[]): Promise<unknown[]> {
  if (queries.length === 0) return [];
  return batch(c, queries as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Counts one round trip for a single query run outside `batch`. */
export function countTrip(c: Context<AppEnv>) {
  c.get("dbStats").roundTrips++;
}
