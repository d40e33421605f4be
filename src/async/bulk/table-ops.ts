import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { jsonKeys } from "../../db/stated-plans.ts";
import {
  changedByDelete,
  deleteJson,
  insertJson,
  type JsonRow,
  STAMP_COLUMN,
  stampByUpsert,
  updateJson,
  upsertJson,
} from "./bulk-sql.ts";
import { type OwnedSet, replaceSetJson, stampExtraOwners } from "./set-sql.ts";
import { ROLLUP } from "./stamps.ts";

/*
 * The statements of a RowOps log collected per table (row-ops.ts): each table's deletes, replaced
 * sets, inserts and merges, and the stamps of the owners they change.
 */

/** The id of a row by its key columns' values (a key of TableOps' maps). */
export const rowId = (keys: string[], row: JsonRow) => keys.map((k) => String(row[k])).join("\u0000");

/** The ops of one table, collected from a RowOps log (row-ops.ts). */
export interface TableOps {
  deletes: Map<string, { keys: string[]; row: JsonRow }>;
  inserts: JsonRow[];
  insertColumns: Set<string>;
  merges: Map<string, { keys: string[]; row: JsonRow }>;
  mergeKeys?: string[];
  /**
   * Merges a change check found (RowOps.keepChanged): true when the stored row exists (it is
   * updated, not inserted), false when it is missing (inserted, not updated). Unchecked merges are
   * upserted both ways.
   */
  found: Map<string, boolean>;
  /** Replaced sets by owner value: the later set of an owner wins whole. */
  sets: Map<string, { owner: string; member: string; value: number; rows: JsonRow[] }>;
}

/** Every value of `column` the table's ops name (merged, inserted, deleted or set rows). */
export function ownerValues(ops: TableOps, column: string): unknown[] {
  return [
    ...[...ops.merges.values()].map((m) => m.row[column]),
    ...[...ops.deletes.values()].map((d) => d.row[column]),
    ...ops.inserts.map((r) => r[column]),
    ...[...ops.sets.values()].map((s) => s.value),
  ].filter((v) => v !== undefined && v !== null);
}

/** Stamps the owners (`column`) whose rows of `table` the ops would change, before they run. */
export function ownerStamps(
  owner: SQLiteTable,
  table: SQLiteTable,
  ops: TableOps,
  upsert: boolean,
  column: string,
  now: string,
): SQL[] {
  const changed: SQL[] = [];
  for (const [keys, rows] of deletesByKeys(ops)) changed.push(...changedByDelete(table, keys, rows, column));
  const out: SQL[] = [];
  const merges = [...ops.merges.values()];
  if (merges.length > 0 && ops.mergeKeys) {
    const keys = ops.mergeKeys;
    const rows = merges.map((m) => m.row);
    out.push(...stampByUpsert(owner, table, keys, mergeColumns(merges, keys), rows, column, now, upsert));
  }
  for (const set of setGroups(ops)) {
    out.push(...stampExtraOwners(owner, table, set.owner, set.member, set.sets, now));
    const rows = set.sets.flatMap((s) => s.rows);
    out.push(...stampByUpsert(owner, table, [set.owner, set.member], set.columns, rows, column, now));
  }
  return [...changed.map((select) => stampOwners(owner, select, now)), ...out];
}

/** Stamps the owners a SELECT of `id`s names (materialized: the owner is searched per id). */
const stampOwners = (ownerTable: SQLiteTable, changed: SQL, now: string): SQL => {
  const owner = sql.identifier(getTableName(ownerTable));
  const stamp = sql.identifier(STAMP_COLUMN);
  return sql`UPDATE ${owner} SET ${stamp} = ${now} FROM (${changed} LIMIT -1) AS c WHERE ${owner}.id = c.id AND ${owner}.${stamp} IS NOT ${now}`;
};

/** Stamps the parent of every variant among `ids` stamped `now` (after every write of the plan). */
export const stampRollup = (ids: unknown[], now: string): SQL => {
  const { table, owner, column } = ROLLUP;
  const t = sql.identifier(getTableName(table));
  const p = sql.identifier(getTableName(owner));
  const stamp = sql.identifier(STAMP_COLUMN);
  return sql`UPDATE ${p} SET ${stamp} = ${now} FROM (SELECT DISTINCT v.${sql.identifier(column)} AS id FROM ${jsonKeys(JSON.stringify(ids))} AS k CROSS JOIN ${t} AS v ON v.id = k.value WHERE v.${stamp} = ${now} LIMIT -1) AS c WHERE ${p}.id = c.id AND ${p}.${stamp} IS NOT ${now}`;
};

export function deletesByKeys(ops: TableOps): Map<string[], JsonRow[]> {
  const byKeys = new Map<string, { keys: string[]; rows: JsonRow[] }>();
  for (const { keys, row } of ops.deletes.values()) {
    const k = keys.join(",");
    const group = byKeys.get(k);
    if (group) group.rows.push(row);
    else byKeys.set(k, { keys, rows: [row] });
  }
  return new Map([...byKeys.values()].map((g) => [g.keys, g.rows]));
}

export const mergeColumns = (merges: { row: JsonRow }[], keys: string[]) =>
  [...new Set(merges.flatMap((m) => Object.keys(m.row)))].filter((c) => !keys.includes(c));

/** The sets of one table, grouped by owner column and member (one group in practice). */
export function setGroups(ops: TableOps) {
  const groups = new Map<string, { owner: string; member: string; columns: string[]; sets: OwnedSet[] }>();
  for (const set of ops.sets.values()) {
    const k = `${set.owner},${set.member}`;
    let group = groups.get(k);
    if (!group) {
      group = { owner: set.owner, member: set.member, columns: [], sets: [] };
      groups.set(k, group);
    }
    group.sets.push({ value: set.value, rows: set.rows });
  }
  for (const group of groups.values()) {
    const keys = [group.owner, group.member];
    const sent = group.sets.flatMap((set) => set.rows.flatMap((r) => Object.keys(r)));
    group.columns = [...new Set(sent)].filter((c) => !keys.includes(c));
  }
  return [...groups.values()];
}

export function tableStatements(table: SQLiteTable, ops: TableOps, upsert: boolean): SQL[] {
  const out: SQL[] = [];
  for (const [keys, rows] of deletesByKeys(ops)) out.push(...deleteJson(table, keys, rows));
  for (const set of setGroups(ops))
    out.push(...replaceSetJson(table, set.owner, set.member, set.columns, set.sets));
  out.push(...insertJson(table, [...ops.insertColumns], ops.inserts));
  const merges = [...ops.merges.values()];
  if (merges.length > 0 && ops.mergeKeys) {
    const keys = ops.mergeKeys;
    const columns = mergeColumns(merges, keys);
    const rows = merges.map((m) => m.row);
    if (!upsert) out.push(...updateJson(table, keys, columns, rows));
    else if (ops.found.size === 0) out.push(...upsertJson(table, keys, columns, rows));
    else {
      // A checked row is only updated (it exists) or only inserted (it is missing).
      const ids = [...ops.merges.keys()];
      const where = (stored: boolean) => rows.filter((_, i) => ops.found.get(ids[i] as string) !== !stored);
      out.push(...updateJson(table, keys, columns, where(true)));
      out.push(...insertJson(table, [...keys, ...columns], where(false), { skipExisting: keys }));
    }
  }
  return out;
}
