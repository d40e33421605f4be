import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/**
 * Raw SQL (drizzle's `sql` template) run on the D1 binding directly. drizzle's own `db.batch`
 * cannot bind parameters of raw `sql` queries, and the bulk jobs are made of exactly those.
 */
const dialect = new SQLiteSyncDialect();

const toStatement = (d1: D1Database, query: SQL): D1PreparedStatement => {
  const { sql, params } = dialect.sqlToQuery(query);
  return d1.prepare(sql).bind(...params);
};

/** One round trip, one transaction: every statement commits or none does. */
export async function rawBatch(d1: D1Database, queries: SQL[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return d1.batch(queries.map((q) => toStatement(d1, q)));
}

export async function rawAll<T>(d1: D1Database, query: SQL): Promise<T[]> {
  return (await toStatement(d1, query).all<T>()).results;
}
