import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import { differs, groupJson, ident, keyMatch, shapesOf } from "./bulk-sql.ts";
import type { OwnedSet } from "./set-sql.ts";
import { deletesByKeys, mergeColumns, rowId, setGroups, type TableOps } from "./table-ops.ts";

/*
 * Read-only twins of the bulk writes' comparisons (bulk-sql.ts, set-sql.ts), run before the
 * writes in a batch of their own: each names, by its position in the JSON it was sent, the rows
 * a write would change. RowOps.keepChanged drops the others, so a record whose values all equal
 * what is stored costs no write statement at all (not only no written row): a re-sent 10 MB
 * variants feed ran 14 statements per message comparing 2,000 records in SQL to write nothing.
 * The writes keep their own comparisons (`IS NOT`), so a row another writer changes between the
 * check and the batch is written only if it still differs; one the check skipped stays as that
 * writer left it, as if the job had written it first.
 */

/** A SELECT of `tag` values: the positions in `ids` of the sent rows that would change. */
interface ChangeCheck {
  statement: SQL;
  ids: string[];
}

/** What a check covers: the merged rows, the deleted rows or the replaced sets of a table. */
export type CheckKind = "merge" | "delete" | "set";
export interface TableCheck {
  kind: CheckKind;
  check: ChangeCheck;
}

/**
 * The checks of one table's collected ops (RowOps.changeChecks). A merge of a key the plan also
 * deletes is not checked (the delete runs first): it is kept.
 */
export function tableChecks(table: SQLiteTable, ops: TableOps, upsert: boolean): TableCheck[] {
  const out: TableCheck[] = [];
  const add = (kind: CheckKind, checks: ChangeCheck[]) => {
    for (const check of checks) out.push({ kind, check });
  };
  const merges = [...ops.merges].filter(([id]) => !ops.deletes.has(id));
  if (merges.length > 0 && ops.mergeKeys) {
    const sent = merges.map(([, m]) => m);
    const columns = mergeColumns(sent, ops.mergeKeys);
    const ids = merges.map(([id]) => id);
    add(
      "merge",
      mergeChecks(
        table,
        ops.mergeKeys,
        columns,
        sent.map((m) => m.row),
        ids,
        upsert,
      ),
    );
  }
  for (const [keys, rows] of deletesByKeys(ops))
    add(
      "delete",
      deleteChecks(
        table,
        keys,
        rows,
        rows.map((row) => rowId(keys, row)),
      ),
    );
  for (const set of setGroups(ops)) {
    const ids = set.sets.map((s) => String(s.value));
    add("set", setChecks(table, set.owner, set.member, set.columns, set.sets, ids));
  }
  return out;
}

const tagOf = (alias: string, index: number) => sql.raw(`json_extract(${alias}.value, '$[${index}]')`);

/**
 * The merged rows (`rows[i]` tagged `ids[i]`) whose sent fields differ from the stored row or,
 * when `inserts`, that are missing from the table: the rows updateJson (and, for upserts,
 * insertJson) would write. A row with no compared field changes only when it is missing.
 */
function mergeChecks<T extends SQLiteTable>(
  target: T,
  keys: SqlColumn<T>[],
  columns: SqlColumn<T>[],
  rows: SqlRow<T>[],
  ids: string[],
  inserts: boolean,
): ChangeCheck[] {
  const table = getTableName(target);
  const position = new Map(rows.map((row, i) => [row, ids[i] as string]));
  const groups = columns.length > 0 ? shapesOf(columns, rows) : [];
  // Rows carrying none of `columns` (keys and stamp only) are a group of their own.
  const bare = rows.filter((row) => columns.every((c) => row[c] === undefined));
  if (bare.length > 0) groups.push({ columns: [], rows: bare });
  return groups.flatMap((group) => {
    const change = differs(table, keys, group.columns);
    if (!change && !inserts) return [];
    const missing = inserts ? sql`${ident(table)}.${ident(keys[0] as string)} IS NULL` : sql`0`;
    const cols = [...keys, ...group.columns];
    const ids = group.rows.map((row) => position.get(row) as string);
    const json = group.rows.map((row, i) => JSON.stringify([...cols.map((c) => row[c] ?? null), i]));
    return groupJson(json).map((part) => ({
      ids,
      statement: sql`SELECT ${tagOf("j", cols.length)} AS tag, ${ident(table)}.${ident(keys[0] as string)} IS NULL AS missing FROM json_each(${part}) AS j LEFT JOIN ${ident(table)} ON ${keyMatch(table, keys)} WHERE ${missing}${change ? sql` OR ${change}` : sql``}`,
    }));
  });
}

/** The deleted rows (`rows[i]` tagged `ids[i]`) that exist: the rows deleteJson would delete. */
function deleteChecks<T extends SQLiteTable>(
  target: T,
  keys: SqlColumn<T>[],
  rows: SqlRow<T>[],
  ids: string[],
): ChangeCheck[] {
  const table = getTableName(target);
  const json = rows.map((row, i) => JSON.stringify([...keys.map((k) => row[k] ?? null), i]));
  return groupJson(json).map((part) => ({
    ids,
    statement: sql`SELECT ${tagOf("j", keys.length)} AS tag FROM json_each(${part}) AS j WHERE EXISTS (SELECT 1 FROM ${ident(table)}${indexedBy(target, keys)} WHERE ${keyMatch(table, keys)})`,
  }));
}

/**
 * The owners (`sets[i]` tagged `ids[i]`) whose stored set differs from the sent one: a stored
 * member not sent, or a sent row missing or with a field that differs (the writes of
 * replaceSetJson). An equal set is left out, so it costs no statement.
 */
function setChecks<T extends SQLiteTable>(
  table: T,
  owner: SqlColumn<T>,
  member: SqlColumn<T>,
  columns: SqlColumn<T>[],
  sets: OwnedSet<T>[],
  ids: string[],
): ChangeCheck[] {
  if (sets.length === 0) return [];
  const sent = sets.map((set, i) => JSON.stringify([set.value, set.rows.map((r) => r[member]), i]));
  const extra = groupJson(sent).map((json) => ({
    ids,
    statement: sql`SELECT k.tag AS tag FROM (SELECT json_extract(o.value, '$[0]') AS owner, json_extract(o.value, '$[1]') AS members, json_extract(o.value, '$[2]') AS tag FROM json_each(${json}) AS o LIMIT -1) AS k WHERE EXISTS (SELECT 1 FROM ${ident(getTableName(table))} AS c WHERE c.${ident(owner)} = k.owner AND c.${ident(member)} NOT IN (SELECT value FROM json_each(k.members)))`,
  }));
  const rows = sets.flatMap((set) => set.rows);
  const rowIds = sets.flatMap((set, i) => set.rows.map(() => ids[i] as string));
  return [...extra, ...mergeChecks(table, [owner, member], columns, rows, rowIds, true)];
}
