import { type SQL, sql } from "drizzle-orm";

/**
 * Set-based writes for bulk jobs: every statement binds its rows as ONE JSON parameter and reads
 * them with `json_each`, so a chunk of hundreds of records is a handful of statements, far under
 * D1's 100 bound parameters per statement. Rows are keyed by SQL column names.
 */
export type JsonRow = Record<string, unknown>;

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);
const field = (alias: string, column: string) => sql.raw(`json_extract(${alias}.value, '$.${column}')`);
const present = (alias: string, column: string) => sql.raw(`json_type(${alias}.value, '$.${column}')`);

/**
 * `INSERT INTO t (cols) SELECT … FROM json_each(rows)`. With `skipExisting`, rows whose key columns
 * already exist are left out (`NOT EXISTS`, not `ON CONFLICT DO NOTHING`: a partial row for an
 * existing key would fail a NOT NULL column before the conflict clause is considered). Any UNIQUE
 * violation other than that key still fails the batch.
 */
export function insertJson(
  table: string,
  columns: string[],
  rows: JsonRow[],
  opts: { skipExisting?: string[] } = {},
): SQL | null {
  if (rows.length === 0) return null;
  const cols = sql.join(columns.map(ident), sql`, `);
  const values = sql.join(
    columns.map((c) => field("j", c)),
    sql`, `,
  );
  const skip = opts.skipExisting
    ? sql` WHERE NOT EXISTS (SELECT 1 FROM ${ident(table)} WHERE ${sql.join(
        opts.skipExisting.map((k) => sql`${ident(table)}.${ident(k)} = ${field("j", k)}`),
        sql` AND `,
      )})`
    : sql``;
  return sql`INSERT INTO ${ident(table)} (${cols}) SELECT ${values} FROM json_each(${JSON.stringify(rows)}) AS j${skip}`;
}

/**
 * `UPDATE t SET col = <sent value, or unchanged when the row does not carry col>` for each row,
 * matched by `keys`. A field sent as JSON null sets NULL; a field not sent keeps its value, so two
 * writers changing different fields of one row never undo each other.
 */
export function updateJson(
  table: string,
  keys: string[],
  columns: string[],
  rows: JsonRow[],
  extraSet: SQL[] = [],
): SQL | null {
  if (rows.length === 0 || (columns.length === 0 && extraSet.length === 0)) return null;
  const sets = [
    ...columns.map(
      (c) =>
        sql`${ident(c)} = CASE WHEN ${present("j", c)} IS NULL THEN ${ident(table)}.${ident(c)} ELSE ${field("j", c)} END`,
    ),
    ...extraSet,
  ];
  const match = sql.join(
    keys.map((k) => sql`${ident(table)}.${ident(k)} = ${field("j", k)}`),
    sql` AND `,
  );
  return sql`UPDATE ${ident(table)} SET ${sql.join(sets, sql`, `)} FROM json_each(${JSON.stringify(rows)}) AS j WHERE ${match}`;
}

/** Rows merged by key: existing rows get the sent fields (updateJson), missing rows are inserted. */
export function upsertJson(table: string, keys: string[], columns: string[], rows: JsonRow[]): SQL[] {
  if (rows.length === 0) return [];
  const out: SQL[] = [];
  const update = updateJson(table, keys, columns, rows);
  if (update) out.push(update);
  const insert = insertJson(table, [...keys, ...columns], rows, { skipExisting: keys });
  if (insert) out.push(insert);
  return out;
}

/** Deletes the rows matching each row's `keys`. */
export function deleteJson(table: string, keys: string[], rows: JsonRow[]): SQL | null {
  if (rows.length === 0) return null;
  const match = sql.join(
    keys.map((k) => sql`${ident(table)}.${ident(k)} = ${field("j", k)}`),
    sql` AND `,
  );
  return sql`DELETE FROM ${ident(table)} WHERE EXISTS (SELECT 1 FROM json_each(${JSON.stringify(rows)}) AS j WHERE ${match})`;
}

export const compact = <T>(items: (T | null | undefined)[]): T[] => items.filter((i): i is T => i != null);
