import { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/**
 * Raw SQL (drizzle's `sql` template) run on the D1 binding directly. drizzle's own `db.batch`
 * cannot bind parameters of raw `sql` queries, and the bulk jobs are made of exactly those.
 */
const dialect = new SQLiteSyncDialect();

/** A statement as D1 receives it: its text and bound parameters (kept between messages as JSON). */
export interface Compiled {
  sql: string;
  params: unknown[];
}

export const compile = (query: SQL): Compiled => dialect.sqlToQuery(query);

const toStatement = (d1: D1Database, query: SQL | Compiled): D1PreparedStatement => {
  const { sql, params } = query instanceof SQL ? compile(query) : query;
  return d1.prepare(sql).bind(...params);
};

/** One round trip, one transaction: every statement commits or none does. */
export async function rawBatch(d1: D1Database, queries: (SQL | Compiled)[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return d1.batch(queries.map((q) => toStatement(d1, q)));
}

export async function rawAll<T>(d1: D1Database, query: SQL): Promise<T[]> {
  return (await toStatement(d1, query).all<T>()).results;
}
