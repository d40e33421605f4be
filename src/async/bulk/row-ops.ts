import { getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ChangedProducts } from "../../db/cache-generations.ts";
import { products, variants } from "../../db/schema/index.ts";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
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
import { ROLLUP, STAMPED_OWNERS } from "./stamps.ts";
import { parentsFirst } from "./table-order.ts";

interface TableOps {
  deletes: Map<string, { keys: string[]; row: JsonRow }>;
  inserts: JsonRow[];
  insertColumns: Set<string>;
  merges: Map<string, { keys: string[]; row: JsonRow }>;
  mergeKeys?: string[];
  /** Replaced sets by owner value: the later set of an owner wins whole. */
  sets: Map<string, { owner: string; member: string; value: number; rows: JsonRow[] }>;
}

/**
 * The row-level effects of a plan, collected per table and turned into a few set-based statements.
 * Merges of the same key combine in payload order (the later record wins field by field). A later
 * delete cancels the earlier merges and inserts of that key; a merge after a delete keeps the delete
 * (deletes run first), so the row is rebuilt from the later fields only, never merged into the old row.
 * A set replaces an owner's rows of a table (a product's categories or images) with the sent rows,
 * writing only the members that differ; a later set of the same owner replaces the earlier one and
 * the rows an earlier record inserted for it.
 * Inserted rows belong to owners inserted by the same plan (new products and variants): they stamp
 * no owner. An op names its table by SQL name: dry runs store ops as they are (dry-run-memory.ts).
 */
export type RowOp =
  | { kind: "insert"; table: string; row: JsonRow }
  | { kind: "merge"; table: string; keys: string[]; row: JsonRow }
  | { kind: "delete"; table: string; keys: string[]; row: JsonRow };
type LoggedOp =
  | RowOp
  | { kind: "set"; table: string; keys: string[]; member: string; row: JsonRow; rows: JsonRow[] };

export class RowOps {
  private readonly log: LoggedOp[] = [];
  /** The tables the log names, by SQL name: their foreign keys order the statements. */
  private readonly tables = new Map<string, SQLiteTable>();

  insert<T extends SQLiteTable>(table: T, row: SqlRow<T>) {
    this.log.push({ kind: "insert", table: this.named(table), row });
  }

  /** Update (and, for upsert tables, insert when missing) the row with these key columns. */
  merge<T extends SQLiteTable>(table: T, keys: SqlColumn<T>[], row: SqlRow<T>) {
    this.log.push({ kind: "merge", table: this.named(table), keys, row });
  }

  delete<T extends SQLiteTable>(table: T, keys: SqlColumn<T>[], row: SqlRow<T>) {
    this.log.push({ kind: "delete", table: this.named(table), keys, row });
  }

  /**
   * Replace the rows of `table` whose `owner` column is `value` with `rows` (each carrying the owner,
   * the `member` column that identifies a row within its owner, and the other columns).
   */
  replaceSet<T extends SQLiteTable>(
    table: T,
    owner: SqlColumn<T>,
    member: SqlColumn<T>,
    value: number,
    rows: SqlRow<T>[],
  ) {
    this.log.push({
      kind: "set",
      table: this.named(table),
      keys: [owner],
      member,
      row: { [owner]: value },
      rows,
    });
  }

  /** Appends another record's ops (a record's ops join the chunk only when the record succeeds). */
  absorb(other: RowOps) {
    this.log.push(...other.log);
    for (const [name, table] of other.tables) this.tables.set(name, table);
  }

  private named(table: SQLiteTable): string {
    const name = getTableName(table);
    this.tables.set(name, table);
    return name;
  }

  /**
   * The ops on the tables of `columns`, each row cut to that table's columns (what a dry run
   * remembers of its writes, src/async/bulk/dry-run.ts).
   */
  project(columns: Readonly<Record<string, readonly string[]>>): RowOp[] {
    const out: RowOp[] = [];
    for (const op of this.log) {
      const keep = columns[op.table];
      if (!keep) continue;
      const row: JsonRow = {};
      for (const c of keep) if (op.row[c] !== undefined) row[c] = op.row[c];
      // A replaced set names its owner, as a delete of the owner's rows would.
      out.push(op.kind === "set" ? { kind: "delete", table: op.table, keys: op.keys, row } : { ...op, row });
    }
    return out;
  }

  /**
   * The products and variants the log writes rows of (for the edge cache's stamps,
   * src/db/cache-generations.ts): a `products` row by its `id`, a `variants` row by its `id`, any
   * other row by its `product_id` or `variant_id`. Undefined when a row names none of them. Rows
   * sent unchanged are named too (the stamps then end a few pages more than needed, never fewer).
   */
  changedProducts(): ChangedProducts | undefined {
    const productIds = new Set<number>();
    const variantIds = new Set<number>();
    const id = (value: unknown) => (typeof value === "number" ? value : undefined);
    for (const { table: name, row } of this.log) {
      const table = this.tables.get(name);
      const product = id(table === products ? row.id : row.product_id);
      const variant = id(table === variants ? row.id : row.variant_id);
      if (product !== undefined) productIds.add(product);
      else if (variant !== undefined) variantIds.add(variant);
      else return undefined;
    }
    return { productIds: [...productIds], variantIds: [...variantIds] };
  }

  /**
   * The statements of the log, each table's after its parents' (inserts satisfy foreign keys within
   * one batch). Every write skips rows equal to what is stored (bulk-sql.ts). With `now`, a write
   * that changes a row stamps `updated_at` (the row's own, through its stamp column; its owner's,
   * STAMPED_OWNERS, by a statement that compares the sent rows before they are written; a stamped
   * variant's product, by a last statement), so the changed rows are those stamped `now`.
   */
  statements(upsertTables: ReadonlySet<SQLiteTable>, now?: string): SQL[] {
    const byTable = new Map<string, TableOps>();
    for (const op of this.log) {
      let ops = byTable.get(op.table);
      if (!ops) {
        ops = {
          deletes: new Map(),
          inserts: [],
          insertColumns: new Set(),
          merges: new Map(),
          sets: new Map(),
        };
        byTable.set(op.table, ops);
      }
      if (op.kind === "insert") {
        ops.inserts.push(op.row);
        for (const k of Object.keys(op.row)) ops.insertColumns.add(k);
        continue;
      }
      const id = op.keys.map((k) => String(op.row[k])).join("\u0000");
      if (op.kind === "set") {
        const owner = op.keys[0] as string;
        ops.sets.set(id, { owner, member: op.member, value: op.row[owner] as number, rows: op.rows });
        if (ops.inserts.length > 0) ops.inserts = ops.inserts.filter((r) => String(r[owner]) !== id);
      } else if (op.kind === "delete") {
        ops.merges.delete(id);
        ops.deletes.set(id, { keys: op.keys, row: op.row });
        // Rows an earlier record inserted under this key go too (deletes run before inserts).
        const { keys, row } = op;
        if (ops.inserts.length > 0)
          ops.inserts = ops.inserts.filter((r) => keys.some((k) => String(r[k]) !== String(row[k])));
      } else {
        const prev = ops.merges.get(id);
        ops.merges.set(id, { keys: op.keys, row: prev ? { ...prev.row, ...op.row } : op.row });
        ops.mergeKeys = op.keys;
      }
    }
    const out: SQL[] = [];
    const rollupIds = new Set<unknown>();
    for (const table of parentsFirst(
      [...byTable.keys()].map((name) => this.tables.get(name) as SQLiteTable),
    )) {
      const name = getTableName(table);
      const ops = byTable.get(name) as TableOps;
      const upsert = upsertTables.has(table);
      const stamped = STAMPED_OWNERS.get(table);
      if (now && stamped) {
        out.push(...ownerStamps(stamped.owner, table, ops, upsert, stamped.column, now));
        if (stamped.owner === ROLLUP.table)
          for (const id of ownerValues(ops, stamped.column)) rollupIds.add(id);
      }
      if (table === ROLLUP.table) for (const id of ownerValues(ops, "id")) rollupIds.add(id);
      out.push(...tableStatements(table, ops, upsert));
    }
    if (now && rollupIds.size > 0) out.push(stampRollup([...rollupIds], now));
    return out;
  }
}

/** Every value of `column` the table's ops name (merged, inserted, deleted or set rows). */
function ownerValues(ops: TableOps, column: string): unknown[] {
  return [
    ...[...ops.merges.values()].map((m) => m.row[column]),
    ...[...ops.deletes.values()].map((d) => d.row[column]),
    ...ops.inserts.map((r) => r[column]),
    ...[...ops.sets.values()].map((s) => s.value),
  ].filter((v) => v !== undefined && v !== null);
}

/** Stamps the owners (`column`) whose rows of `table` the ops would change, before they run. */
function ownerStamps(
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
const stampRollup = (ids: unknown[], now: string): SQL => {
  const { table, owner, column } = ROLLUP;
  const t = sql.identifier(getTableName(table));
  const p = sql.identifier(getTableName(owner));
  const stamp = sql.identifier(STAMP_COLUMN);
  return sql`UPDATE ${p} SET ${stamp} = ${now} FROM (SELECT DISTINCT v.${sql.identifier(column)} AS id FROM ${jsonKeys(JSON.stringify(ids))} AS k CROSS JOIN ${t} AS v ON v.id = k.value WHERE v.${stamp} = ${now} LIMIT -1) AS c WHERE ${p}.id = c.id AND ${p}.${stamp} IS NOT ${now}`;
};

function deletesByKeys(ops: TableOps): Map<string[], JsonRow[]> {
  const byKeys = new Map<string, { keys: string[]; rows: JsonRow[] }>();
  for (const { keys, row } of ops.deletes.values()) {
    const k = keys.join(",");
    const group = byKeys.get(k);
    if (group) group.rows.push(row);
    else byKeys.set(k, { keys, rows: [row] });
  }
  return new Map([...byKeys.values()].map((g) => [g.keys, g.rows]));
}

const mergeColumns = (merges: { row: JsonRow }[], keys: string[]) =>
  [...new Set(merges.flatMap((m) => Object.keys(m.row)))].filter((c) => !keys.includes(c));

/** The sets of one table, grouped by owner column and member (one group in practice). */
function setGroups(ops: TableOps) {
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

function tableStatements(table: SQLiteTable, ops: TableOps, upsert: boolean): SQL[] {
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
    if (upsert) out.push(...upsertJson(table, keys, columns, rows));
    else out.push(...updateJson(table, keys, columns, rows));
  }
  return out;
}
