import { createTableRelationsHelpers, extractTablesRelationalConfig } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { DrizzleD1Database, SQLiteD1Session } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Db } from "../env.ts";
import { fastBatch, rowsReadOf, rowsWrittenOf } from "./fast-batch.ts";
import * as schema from "./schema/index.ts";

/**
 * What `drizzle(d1, { schema })` derives from the schema on every call (the relational config of
 * every table, a tenth of a small request's time), derived once per isolate.
 */
const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
const dialect = new SQLiteAsyncDialect();

/** `drizzle(d1, { schema })`, built as drizzle-orm/d1's `drizzle` builds it, on the derived config. */
export const createDb = (d1: D1Database | D1DatabaseSession): Db => {
  const client = d1 as D1Database;
  const db = new DrizzleD1Database(
    "async",
    dialect,
    new SQLiteD1Session(client, dialect, relational),
    relational,
  );
  return Object.assign(db, { $client: client }) as unknown as Db;
};

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
  c.set("db", createDb(countingWrites(session ?? c.env.DB, c.get("dbStats"))));
  await next();
  const bookmark = session?.getBookmark();
  if (bookmark && c.get("dbStats").roundTrips > 0) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};

/**
 * The request's D1 binding, whose batches (every write commits in one, and the reads' `fastBatch`)
 * add the rows D1 reports they wrote to the request's Server-Timing (`d1-rows-written`).
 */
function countingWrites<T extends D1Database | D1DatabaseSession>(d1: T, stats: { rowsWritten?: number }): T {
  const batch = async <R = unknown>(statements: D1PreparedStatement[]) => {
    const results = await d1.batch<R>(statements);
    stats.rowsWritten = (stats.rowsWritten ?? 0) + rowsWrittenOf(results);
    return results;
  };
  return new Proxy(d1, {
    get(target, property) {
      if (property === "batch") return batch;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Runs independent queries as one D1 round trip (a `db.batch` is also a transaction). */
export async function batch<T extends readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]>(
  c: Context<AppEnv>,
  queries: T,
) {
  const stats = c.get("dbStats");
  stats.roundTrips++;
  const phases = c.get("phases");
  const results = await fastBatch(c.get("db"), queries, phases, stats);
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

/**
 * Adds the rows D1 read and wrote for results of a query run outside `batch` (drizzle's
 * single-statement `get`/`all` go through `raw()`, which answers no `meta`: only D1 results carry it).
 */
export function countRowsRead(c: Context<AppEnv>, results: readonly D1Result[]) {
  const stats = c.get("dbStats");
  stats.rowsRead += rowsReadOf(results);
  stats.rowsWritten = (stats.rowsWritten ?? 0) + rowsWrittenOf(results);
}
