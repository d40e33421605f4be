import { getTableName, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ChangedProducts } from "../../db/cache-generations.ts";
import { products, variants } from "../../db/schema/index.ts";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import type { JsonRow } from "./bulk-sql.ts";
import { type CheckKind, type TableCheck, tableChecks } from "./change-checks.ts";
import { ROLLUP, STAMPED_OWNERS } from "./stamps.ts";
import { ownerStamps, ownerValues, rowId, stampRollup, type TableOps, tableStatements } from "./table-ops.ts";
import { parentsFirst } from "./table-order.ts";

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
  /** The log collected per table (statements), once; keepChanged drops from it what writes nothing. */
  private collected?: Map<string, TableOps>;
  /** The checks of the last changeChecks, for keepChanged. */
  private checks?: ({ table: string } & TableCheck)[];
  /** Key ids of the ops keepChanged dropped, by table and kind: what they name changes nothing. */
  private readonly dropped = new Map<string, Set<string>>();
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
    this.collected = undefined;
    this.log.push(...other.log);
    for (const [name, table] of other.tables) this.tables.set(name, table);
  }

  private named(table: SQLiteTable): string {
    this.collected = undefined;
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
    for (const op of this.live()) {
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
   * sent unchanged that no change check dropped are named too (the stamps then end a few pages more
   * than needed, never fewer).
   */
  changedProducts(): ChangedProducts | undefined {
    const productIds = new Set<number>();
    const variantIds = new Set<number>();
    const id = (value: unknown) => (typeof value === "number" ? value : undefined);
    for (const { table: name, row } of this.live()) {
      const table = this.tables.get(name);
      const product = id(table === products ? row.id : row.product_id);
      const variant = id(table === variants ? row.id : row.variant_id);
      if (product !== undefined) productIds.add(product);
      else if (variant !== undefined) variantIds.add(variant);
      else return undefined;
    }
    return { productIds: [...productIds], variantIds: [...variantIds] };
  }

  /** The logged ops keepChanged did not drop. */
  private live(): LoggedOp[] {
    if (this.dropped.size === 0) return this.log;
    return this.log.filter(
      (op) => op.kind === "insert" || !this.dropped.get(`${op.table}\u0001${op.kind}`)?.has(keyId(op)),
    );
  }

  /**
   * SELECTs naming the merges, deletes and replaced sets that would change a row (change-checks.ts),
   * to run before the statements; their results go to keepChanged. A merge of a key the plan also
   * deletes is not checked (the delete runs first): it is kept.
   */
  changeChecks(upsertTables: ReadonlySet<SQLiteTable>): SQL[] {
    this.checks = [...this.collect()].flatMap(([name, ops]) => {
      const table = this.tables.get(name) as SQLiteTable;
      return tableChecks(table, ops, upsertTables.has(table)).map((c) => ({ table: name, ...c }));
    });
    return this.checks.map((c) => c.check.statement);
  }

  /**
   * Drops the checked ops whose check (the results of changeChecks' statements, in order) named
   * no change: every merge, delete and set a check covered and did not name. The statements, the
   * change feed's ids and the edge cache's products then leave them out.
   */
  keepChanged(results: readonly { results?: unknown[] }[]) {
    const groups = new Map<
      string,
      {
        table: string;
        kind: CheckKind;
        covered: Set<string[]>;
        named: Set<string>;
        missing: Map<string, boolean>;
      }
    >();
    (this.checks ?? []).forEach(({ table, kind, check }, i) => {
      const at = `${table}\u0001${kind}`;
      let group = groups.get(at);
      if (!group) {
        group = { table, kind, covered: new Set(), named: new Set(), missing: new Map() };
        groups.set(at, group);
      }
      group.covered.add(check.ids);
      for (const row of (results[i]?.results ?? []) as { tag: number; missing?: number }[]) {
        const id = check.ids[row.tag];
        if (id === undefined) continue;
        group.named.add(id);
        if (kind === "merge" && row.missing !== undefined) group.missing.set(id, row.missing === 1);
      }
    });
    const byTable = this.collect();
    for (const [at, { table, kind, covered, named, missing }] of groups) {
      const ops = byTable.get(table);
      if (!ops) continue;
      for (const [id, absent] of missing) ops.found.set(id, !absent);
      const map = kind === "merge" ? ops.merges : kind === "delete" ? ops.deletes : ops.sets;
      const dropped = this.dropped.get(at) ?? new Set<string>();
      for (const ids of covered) {
        for (const id of ids) {
          if (named.has(id)) continue;
          map.delete(id);
          dropped.add(id);
        }
      }
      this.dropped.set(at, dropped);
    }
    this.checks = undefined;
  }

  /** The log per table: merges of one key combined, deletes cancelling earlier ops, sets by owner. */
  private collect(): Map<string, TableOps> {
    if (this.collected) return this.collected;
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
          found: new Map(),
        };
        byTable.set(op.table, ops);
      }
      if (op.kind === "insert") {
        ops.inserts.push(op.row);
        for (const k of Object.keys(op.row)) ops.insertColumns.add(k);
        continue;
      }
      const id = keyId(op);
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
    this.collected = byTable;
    return byTable;
  }

  /**
   * The statements of the log, each table's after its parents' (inserts satisfy foreign keys within
   * one batch). Every write skips rows equal to what is stored (bulk-sql.ts). With `now`, a write
   * that changes a row stamps `updated_at` (the row's own, through its stamp column; its owner's,
   * STAMPED_OWNERS, by a statement that compares the sent rows before they are written; a stamped
   * variant's product, by a last statement), so the changed rows are those stamped `now`.
   */
  statements(upsertTables: ReadonlySet<SQLiteTable>, now?: string): SQL[] {
    const byTable = this.collect();
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

const keyId = (op: Exclude<LoggedOp, { kind: "insert" }>) => rowId(op.keys, op.row);
