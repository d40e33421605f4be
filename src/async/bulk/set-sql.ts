import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { indexedBy } from "../../db/stated-plans.ts";
import { groupJson, ident, upsertJson } from "./bulk-sql.ts";

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
    ...extraMembers(table, owner, member, sets).map(
      (extra) =>
        sql`DELETE FROM ${ident(getTableName(table))}${indexedBy(table, keys)} WHERE (${ident(owner)}, ${ident(member)}) IN (SELECT c.${ident(owner)}, c.${ident(member)} FROM ${extra})`,
    ),
    ...upsertJson(
      table,
      keys,
      columns,
      sets.flatMap((set) => set.rows),
    ),
  ];
}

/** The owners whose stored set has members `replaceSetJson` would delete (its upserts: stampByUpsert). */
export const extraOwners = <T extends SQLiteTable>(
  table: T,
  owner: SqlColumn<T>,
  member: SqlColumn<T>,
  sets: OwnedSet<T>[],
) =>
  extraMembers(table, owner, member, sets).map((extra) => sql`SELECT c.${ident(owner)} AS id FROM ${extra}`);

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
  if (sets.length === 0) return [];
  const grouped = sets.map((set) => [set.value, set.rows.map((r) => r[member])]);
  return groupJson(grouped.map((g) => JSON.stringify(g))).map(
    (json) =>
      sql`(SELECT json_extract(o.value, '$[0]') AS owner, json_extract(o.value, '$[1]') AS members FROM json_each(${json}) AS o) AS k CROSS JOIN ${ident(getTableName(table))} AS c ON c.${ident(owner)} = k.owner WHERE c.${ident(member)} NOT IN (SELECT value FROM json_each(k.members))`,
  );
}
