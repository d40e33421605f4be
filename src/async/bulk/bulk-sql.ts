import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { indexedBy, jsonRowsTable } from "../../db/stated-plans.ts";

/**
 * Set-based writes for bulk jobs: every statement binds its rows as ONE JSON parameter and reads
 * them with `json_each`, so a chunk of hundreds of records is a handful of statements, far under
 * D1's 100 bound parameters per statement. Each names its drizzle table; rows are keyed by SQL
 * column names (and bound as arrays of the statement's columns).
 */
export type JsonRow = Record<string, unknown>;

/**
 * A row of `T` keyed by its SQL column names, as bulk statements bind rows: a misspelt or foreign
 * column does not compile. Values are the JSON the statement stores.
 */
export type SqlRow<T extends SQLiteTable> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]?: unknown;
};
export type SqlColumn<T extends SQLiteTable> = keyof SqlRow<T> & string;

/**
 * Largest JSON parameter one statement binds (UTF-8 bytes). D1 caps any string value at 1 MB
 * (2 MB on newer limits); rows beyond this budget go to further statements of the same batch, so
 * a chunk with long descriptions in many locales still fits. A single row is never split.
 */
const MAX_JSON_PARAM_BYTES = 512 * 1024;

const encoder = new TextEncoder();
const NON_ASCII = /[\u0080-\uffff]/;
/** UTF-8 bytes of a string; ASCII text (most payloads) is measured without encoding it. */
export const utf8Length = (text: string) =>
  NON_ASCII.test(text) ? encoder.encode(text).length : text.length;

/**
 * Rows as JSON arrays of `columns` in that order (a column the row does not carry is null: the
 * same NULL `json_extract` gives for a missing key, in fewer bytes than objects with their keys),
 * grouped so that each group's JSON stays within `MAX_JSON_PARAM_BYTES`.
 */
const jsonGroups = (columns: readonly string[], rows: readonly JsonRow[]) =>
  groupJson(rows.map((row) => JSON.stringify(columns.map((c) => row[c] ?? null))));

function groupJson(rows: string[], maxBytes = MAX_JSON_PARAM_BYTES): string[] {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: rows that fit by that bound need no measuring.
  let units = 2;
  for (const json of rows) units += json.length + 1;
  if (units * 3 <= maxBytes) return rows.length > 0 ? [`[${rows.join(",")}]`] : [];
  const out: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const json of rows) {
    const size = utf8Length(json) + 1;
    if (current.length > 0 && bytes + size > maxBytes) {
      out.push(`[${current.join(",")}]`);
      current = [];
      bytes = 2;
    }
    current.push(json);
    bytes += size;
  }
  if (current.length > 0) out.push(`[${current.join(",")}]`);
  return out;
}

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);
const tableIdent = (table: SQLiteTable) => ident(getTableName(table));
/** Element `index` of the row array `alias.value`. */
const field = (alias: string, index: number) => sql.raw(`json_extract(${alias}.value, '$[${index}]')`);

/**
 * `INSERT INTO t (cols) SELECT … FROM json_each(rows)`. With `skipExisting`, rows whose key columns
 * already exist are left out (`NOT EXISTS`, not `ON CONFLICT DO NOTHING`: a partial row for an
 * existing key would fail a NOT NULL column before the conflict clause is considered). Any UNIQUE
 * violation other than that key still fails the batch.
 */
export function insertJson<T extends SQLiteTable>(
  table: T,
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
  opts: { skipExisting?: SqlColumn<T>[] } = {},
): SQL[] {
  if (rows.length === 0) return [];
  const name = tableIdent(table);
  const cols = sql.join(columns.map(ident), sql`, `);
  const values = sql.join(
    columns.map((_, i) => field("j", i)),
    sql`, `,
  );
  const skip = opts.skipExisting
    ? sql` WHERE NOT EXISTS (SELECT 1 FROM ${name} WHERE ${sql.join(
        opts.skipExisting.map((k) => sql`${name}.${ident(k)} = ${field("j", columns.indexOf(k))}`),
        sql` AND `,
      )})`
    : sql``;
  return jsonGroups(columns, rows).map(
    (json) => sql`INSERT INTO ${name} (${cols}) SELECT ${values} FROM json_each(${json}) AS j${skip}`,
  );
}

/**
 * `UPDATE t SET col = <sent value>` for each row, matched by `keys`: a field sent as JSON null sets
 * NULL, a field the row does not carry keeps its value, so two writers changing different fields of
 * one row never undo each other. Rows are grouped by the fields they carry, one statement per group
 * (a payload usually has one or two shapes), so each statement sets exactly its group's columns.
 * `keys` must identify one row per key (rows with the same key are merged beforehand).
 */
export function updateJson<T extends SQLiteTable>(
  table: T,
  keys: SqlColumn<T>[],
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
): SQL[] {
  if (columns.length === 0) return [];
  const name = tableIdent(table);
  const shapes = new Map<string, { columns: string[]; rows: JsonRow[] }>();
  for (const row of rows as JsonRow[]) {
    const sent = columns.filter((c) => row[c] !== undefined);
    if (sent.length === 0) continue;
    const shape = sent.join(",");
    const group = shapes.get(shape);
    if (group) group.rows.push(row);
    else shapes.set(shape, { columns: sent, rows: [row] });
  }
  return [...shapes.values()].flatMap((group) => {
    const sets = group.columns.map((c, i) => sql`${ident(c)} = ${field("j", keys.length + i)}`);
    const match = sql.join(
      keys.map((k, i) => sql`${name}.${ident(k)} = ${field("j", i)}`),
      sql` AND `,
    );
    return jsonGroups([...keys, ...group.columns], group.rows).map(
      (json) =>
        sql`UPDATE ${name} SET ${sql.join(sets, sql`, `)} FROM ${jsonRowsTable(json)} AS j WHERE ${match}`,
    );
  });
}

/** Rows merged by key: existing rows get the sent fields (updateJson), missing rows are inserted. */
export const upsertJson = <T extends SQLiteTable>(
  table: T,
  keys: SqlColumn<T>[],
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
): SQL[] => [
  ...updateJson(table, keys, columns, rows),
  ...insertJson(table, [...keys, ...columns], rows, { skipExisting: keys }),
];

/**
 * Deletes the rows matching each row's `keys`: `(keys) IN (SELECT … FROM json_each(rows))`, which
 * SQLite answers with a lookup of each sent key in the table's index on `keys` (a correlated
 * `EXISTS (… json_each … WHERE t.key = …)` scans the whole table instead: 25 s for 200 variant
 * translations of a 36,000-variant catalog). The index is named (`INDEXED BY`): with the demo
 * seed's statistics SQLite otherwise scanned `price_list_variant_prices`, `product_images` and
 * `product_categories`, believing them a few dozen rows. `keys` must be a prefix of an index of `table`.
 */
export function deleteJson<T extends SQLiteTable>(table: T, keys: SqlColumn<T>[], rows: SqlRow<T>[]): SQL[] {
  const target = sql.join(keys.map(ident), sql`, `);
  const values = sql.join(
    keys.map((_, i) => field("j", i)),
    sql`, `,
  );
  return jsonGroups(keys, rows).map(
    (json) =>
      sql`DELETE FROM ${tableIdent(table)}${indexedBy(getTableName(table), keys)} WHERE (${target}) IN (SELECT ${values} FROM json_each(${json}) AS j)`,
  );
}
