import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { indexedBy, jsonRowsTable } from "../../db/stated-plans.ts";
import { tableIndexes } from "./write-cost.ts";

/**
 * Set-based writes for bulk jobs: every statement binds its rows as ONE JSON parameter and reads
 * them with `json_each`, so a chunk of hundreds of records is a handful of statements, far under
 * D1's 100 bound parameters per statement. Each writer takes a drizzle table, its key and columns
 * by their SQL names and rows keyed by them (SqlRow: a misspelt column does not compile); rows are
 * bound as arrays of the statement's columns.
 */
export type JsonRow = Record<string, unknown>;

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
const jsonGroups = (columns: string[], rows: JsonRow[]) =>
  groupJson(rows.map((row) => JSON.stringify(columns.map((c) => row[c] ?? null))));

export function groupJson(rows: string[], maxBytes = MAX_JSON_PARAM_BYTES): string[] {
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

export const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);
/** Element `index` of the row array `alias.value`. */
const field = (alias: string, index: number) => sql.raw(`json_extract(${alias}.value, '$[${index}]')`);

/**
 * `INSERT INTO t (cols) SELECT … FROM json_each(rows)`. With `skipExisting`, rows whose key columns
 * already exist are left out (`NOT EXISTS`, not `ON CONFLICT DO NOTHING`: a partial row for an
 * existing key would fail a NOT NULL column before the conflict clause is considered). Any UNIQUE
 * violation other than that key still fails the batch.
 */
export function insertJson<T extends SQLiteTable>(
  target: T,
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
  opts: { skipExisting?: SqlColumn<T>[] } = {},
): SQL[] {
  const table = getTableName(target);
  if (rows.length === 0) return [];
  const cols = sql.join(columns.map(ident), sql`, `);
  const values = sql.join(
    columns.map((_, i) => field("j", i)),
    sql`, `,
  );
  const skip = opts.skipExisting
    ? sql` WHERE NOT EXISTS (SELECT 1 FROM ${ident(table)} WHERE ${sql.join(
        opts.skipExisting.map((k) => sql`${ident(table)}.${ident(k)} = ${field("j", columns.indexOf(k))}`),
        sql` AND `,
      )})`
    : sql``;
  return jsonGroups(columns, rows).map(
    (json) => sql`INSERT INTO ${ident(table)} (${cols}) SELECT ${values} FROM json_each(${json}) AS j${skip}`,
  );
}

/**
 * The column a write stamps rather than compares: it is set with a row's other columns when one of
 * them differs from the stored value, and never makes a row differ by itself (DECISIONS §14: a write
 * that changes nothing keeps `updated_at`).
 */
export const STAMP_COLUMN = "updated_at";

/** Rows grouped by the fields they carry (of `columns`), in first-seen order. */
export function shapesOf(columns: string[], rows: JsonRow[]) {
  const shapes = new Map<string, { columns: string[]; rows: JsonRow[] }>();
  for (const row of rows) {
    const sent = columns.filter((c) => row[c] !== undefined);
    if (sent.length === 0) continue;
    const shape = sent.join(",");
    const group = shapes.get(shape);
    if (group) group.rows.push(row);
    else shapes.set(shape, { columns: sent, rows: [row] });
  }
  return [...shapes.values()];
}

/** `t.c IS NOT <sent c>` for each compared column of a group bound after `keys` (`undefined`: none). */
export function differs(table: string, keys: string[], columns: string[]): SQL | undefined {
  const compared = columns.flatMap((c, i) =>
    c === STAMP_COLUMN ? [] : [sql`${ident(table)}.${ident(c)} IS NOT ${field("j", keys.length + i)}`],
  );
  return compared.length > 0 ? sql.join(compared, sql` OR `) : undefined;
}

/** `t.key = <sent key>` for each of `keys`; `owner` (a column and its row's id) replaces its sent value. */
export const keyMatch = (table: string, keys: string[], owner?: { column: string; id: SQL }) =>
  sql.join(
    keys.map((k, i) =>
      k === owner?.column
        ? sql`${ident(table)}.${ident(k)} = ${owner.id}`
        : sql`${ident(table)}.${ident(k)} = ${field("j", i)}`,
    ),
    sql` AND `,
  );

/**
 * `UPDATE t SET col = <sent value>` for each row, matched by `keys`, where a sent value differs from
 * the stored one (`IS NOT`, so NULLs compare as values): a row whose sent fields all equal what is
 * stored is not written (its `updated_at`, a stamp column, stays). A field sent as JSON null sets
 * NULL, a field the row does not carry keeps its value, so two writers changing different fields of
 * one row never undo each other. Rows are grouped by the fields they carry, one statement per group
 * (a payload usually has one or two shapes), so each statement sets exactly its group's columns.
 * `keys` must identify one row per key (rows with the same key are merged beforehand).
 *
 * SQLite rewrites the index entries of every indexed column a SET names, equal value or not, and
 * D1 bills each (write-cost.ts): a re-sent sku beside a changed stock would write the sku's index
 * entries again. So an indexed column is set by a statement of its own, only where it differs; the
 * other columns and the stamp go in one statement, where any sent value differs. (One indexed
 * column and nothing else: a single statement.)
 */
export function updateJson<T extends SQLiteTable>(
  target: T,
  keys: SqlColumn<T>[],
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
): SQL[] {
  const table = getTableName(target);
  if (columns.length === 0) return [];
  const indexed = new Set(tableIndexes(target).flatMap((i) => [...i.columns, ...i.notNull]));
  return shapesOf(columns, rows).flatMap((group) => {
    const compared = group.columns.filter((c) => c !== STAMP_COLUMN);
    if (compared.length === 0) return [];
    const own = compared.filter((c) => indexed.has(c));
    const rest = group.columns.filter((c) => !own.includes(c));
    const alone = own.length === 0 || compared.length === 1;
    const parts = alone
      ? [{ set: group.columns, when: compared }]
      : [
          ...(rest.length > 0 ? [{ set: rest, when: compared }] : []),
          ...own.map((c) => ({ set: [c], when: [c] })),
        ];
    return jsonGroups([...keys, ...group.columns], group.rows).flatMap((json) =>
      parts.map(({ set, when }) => {
        const at = (c: string) => keys.length + group.columns.indexOf(c);
        const sets = set.map((c) => sql`${ident(c)} = ${field("j", at(c))}`);
        const change = sql.join(
          when.map((c) => sql`${ident(table)}.${ident(c)} IS NOT ${field("j", at(c))}`),
          sql` OR `,
        );
        return sql`UPDATE ${ident(table)} SET ${sql.join(sets, sql`, `)} FROM ${jsonRowsTable(json)} AS j WHERE ${keyMatch(table, keys)} AND (${change})`;
      }),
    );
  });
}

/**
 * Stamps (`updated_at = now`) each owner (of `ownerTable`, by `owner`'s value) of a merged row an
 * upsert (updateJson + insertJson) would write: a row missing from the table (`inserts`), or one with
 * a sent field that differs. Run before the rows are written. The sent rows are grouped by owner and
 * an owner is compared only while it is not stamped yet: one its own row's update stamped costs a
 * lookup, not a pass over its rows (`EXISTS` over the owner's rows, `LEFT JOIN` the table by `keys`).
 * The `EXISTS` names the owner's row (`t.owner = o.id`), not its sent id: a term naming only the
 * sent rows is evaluated before the owner is looked up, so every owner's rows were compared (a
 * chunk of 1,000 variant updates with a price each: 3.4 ms → 1.0 ms when every variant changed).
 */
export function stampByUpsert<T extends SQLiteTable>(
  ownerTable: SQLiteTable,
  target: T,
  keys: SqlColumn<T>[],
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
  owner: SqlColumn<T>,
  now: string,
  inserts = true,
): SQL[] {
  const table = getTableName(target);
  const missing = inserts ? sql`${ident(table)}.${ident(keys[0] as string)} IS NULL` : sql`0`;
  const groups = columns.length > 0 ? shapesOf(columns, rows) : [{ columns: [], rows }];
  const o = ident(getTableName(ownerTable));
  const stamp = ident(STAMP_COLUMN);
  return groups.flatMap((group) => {
    const change = differs(table, keys, group.columns);
    const cols = [...keys, ...group.columns];
    const byOwner = new Map<unknown, unknown[][]>();
    for (const row of group.rows) {
      const list = byOwner.get(row[owner]) ?? [];
      list.push(cols.map((c) => row[c] ?? null));
      byOwner.set(row[owner], list);
    }
    return groupJson([...byOwner].map((entry) => JSON.stringify(entry))).map(
      (json) =>
        sql`UPDATE ${o} SET ${stamp} = ${now} FROM ${jsonRowsTable(json)} AS k WHERE ${o}.id = json_extract(k.value, '$[0]') AND ${o}.${stamp} IS NOT ${now} AND EXISTS (SELECT 1 FROM json_each(k.value, '$[1]') AS j LEFT JOIN ${ident(table)} ON ${keyMatch(table, keys, { column: owner, id: sql`${o}.id` })} WHERE ${missing}${change ? sql` OR ${change}` : sql``})`,
    );
  });
}

/** The `owner` value of each existing row `deleteJson` would delete. */
export function changedByDelete<T extends SQLiteTable>(
  table: T,
  keys: SqlColumn<T>[],
  rows: SqlRow<T>[],
  owner: SqlColumn<T>,
): SQL[] {
  const from = sql`${ident(getTableName(table))}${indexedBy(table, keys)}`;
  return deleteWhere(keys, rows).map(
    (where) => sql`SELECT ${ident(owner)} AS id FROM ${from} WHERE ${where}`,
  );
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
  const from = sql`${ident(getTableName(table))}${indexedBy(table, keys)}`;
  return deleteWhere(keys, rows).map((where) => sql`DELETE FROM ${from} WHERE ${where}`);
}

function deleteWhere(keys: string[], rows: JsonRow[]): SQL[] {
  const target = sql.join(keys.map(ident), sql`, `);
  const values = sql.join(
    keys.map((_, i) => field("j", i)),
    sql`, `,
  );
  return jsonGroups(keys, rows).map(
    (json) => sql`(${target}) IN (SELECT ${values} FROM json_each(${json}) AS j)`,
  );
}
