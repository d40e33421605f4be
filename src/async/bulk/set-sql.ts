import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import { groupJson, ident, STAMP_COLUMN, upsertJson } from "./bulk-sql.ts";

/**
 * A sent set of rows replacing `owner`'s rows of `table` (a product's categories, its images): the
 * owners' rows whose `member` value was not sent are deleted; the sent rows are then upserted by
 * `(owner, member)` (updateJson + insertJson), so an equal set writes nothing and a changed one
 * writes only the members that differ. `sets` are the owners whose sets were sent, each with its
 * rows (carrying the owner, the member and `columns`); an empty set deletes every row.
 */
export function replaceSetJson<T extends SQLiteTable>(
  table: T,
  owner: SqlColumn<T>,
  member: SqlColumn<T>,
  columns: SqlColumn<T>[],
  sets: OwnedSet<T>[],
) {
  const keys = [owner, member];
  return [
    // The extra rows by rowid (`(owner, member) IN (…)` searched each again by its key: a chunk of
    // 1,000 products' categories took 10–15 ms, 5 ms so), among the owners' rows found by the
    // owner's index (a bare `rowid IN` is a table scan under statistics that believe it small).
    ...extraMembers(table, owner, member, sets).map(
      (extra) =>
        sql`DELETE FROM ${ident(getTableName(table))}${indexedBy(table, [owner])} WHERE ${ident(owner)} IN (SELECT value FROM json_each(${JSON.stringify(sets.map((set) => set.value))})) AND rowid IN (SELECT c.rowid FROM ${extra})`,
    ),
    ...upsertJson(
      table,
      keys,
      columns,
      sets.flatMap((set) => set.rows),
    ),
  ];
}

/**
 * Stamps (`updated_at = now`) each owner (of `ownerTable`) whose stored set has members
 * `replaceSetJson` would delete (its upserts: stampByUpsert). An owner is compared only while it is
 * not stamped yet: its stored rows are searched after the cheaper test (the `EXISTS` names its row).
 */
export function stampExtraOwners<T extends SQLiteTable>(
  ownerTable: SQLiteTable,
  table: T,
  owner: SqlColumn<T>,
  member: SqlColumn<T>,
  sets: OwnedSet<T>[],
  now: string,
): SQL[] {
  if (sets.length === 0) return [];
  const o = ident(getTableName(ownerTable));
  const stamp = ident(STAMP_COLUMN);
  return sentMembers(member, sets).map(
    (json) =>
      sql`UPDATE ${o} SET ${stamp} = ${now} FROM ${ownerMembers(json)} WHERE ${o}.id = k.owner AND ${o}.${stamp} IS NOT ${now} AND EXISTS (SELECT 1 FROM ${ident(getTableName(table))} AS c WHERE c.${ident(owner)} = ${o}.id AND c.${ident(member)} NOT IN (SELECT value FROM json_each(k.members)))`,
  );
}

/** One owner's sent set: its value and rows. */
export interface OwnedSet<T extends SQLiteTable = SQLiteTable> {
  value: number;
  rows: SqlRow<T>[];
}

/**
 * The stored rows (`c`) of the owners that were not sent: each owner with the members it sent,
 * its rows searched by the owner and checked against that short list (one `json_each` per owner;
 * a `(owner, member) NOT IN (every sent row)` took 150 ms for 1,000 products' categories).
 */
function extraMembers<T extends SQLiteTable>(
  table: T,
  owner: SqlColumn<T>,
  member: SqlColumn<T>,
  sets: OwnedSet<T>[],
): SQL[] {
  return sentMembers(member, sets).map(
    (json) =>
      sql`${ownerMembers(json)} CROSS JOIN ${ident(getTableName(table))} AS c ON c.${ident(owner)} = k.owner WHERE c.${ident(member)} NOT IN (SELECT value FROM json_each(k.members))`,
  );
}

/** Each owner with its sent members, `[[owner, [member, …]], …]`, in JSON parameters of bounded size. */
const sentMembers = <T extends SQLiteTable>(member: SqlColumn<T>, sets: OwnedSet<T>[]) =>
  groupJson(sets.map((set) => JSON.stringify([set.value, set.rows.map((r) => r[member])])));

/** The rows of `sentMembers` as a table `k (owner, members)`. */
const ownerMembers = (json: string) =>
  sql`(SELECT json_extract(o.value, '$[0]') AS owner, json_extract(o.value, '$[1]') AS members FROM json_each(${json}) AS o LIMIT -1) AS k`;
