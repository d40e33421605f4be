import { getTableName, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ChangedProducts } from "../../db/cache-generations.ts";
import {
  deleteJson,
  insertJson,
  type JsonRow,
  type SqlColumn,
  type SqlRow,
  updateJson,
  upsertJson,
} from "./bulk-sql.ts";
import { parentsFirst } from "./table-order.ts";

interface TableOps {
  deletes: Map<string, { keys: string[]; row: JsonRow }>;
  inserts: JsonRow[];
  insertColumns: Set<string>;
  merges: Map<string, { keys: string[]; row: JsonRow }>;
  mergeKeys?: string[];
}

/**
 * The row-level effects of a plan, collected per table and turned into a few set-based statements.
 * Merges of the same key combine in payload order (the later record wins field by field). A later
 * delete cancels the earlier merges and inserts of that key; a merge after a delete keeps the delete
 * (deletes run first), so the row is rebuilt from the later fields only, never merged into the old row.
 * An op names its table by SQL name: dry runs store ops as they are (dry-run-memory.ts).
 */
export type RowOp =
  | { kind: "insert"; table: string; row: JsonRow }
  | { kind: "merge"; table: string; keys: string[]; row: JsonRow }
  | { kind: "delete"; table: string; keys: string[]; row: JsonRow };

export class RowOps {
  private readonly log: RowOp[] = [];
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
      out.push({ ...op, row });
    }
    return out;
  }

  /**
   * The products and variants the log writes rows of (for the edge cache's stamps,
   * src/db/cache-generations.ts): a `products` row by its `id`, a `variants` row by its `id`, any
   * other row by its `product_id` or `variant_id`. Undefined when a row names none of them.
   */
  changedProducts(): ChangedProducts | undefined {
    const productIds = new Set<number>();
    const variantIds = new Set<number>();
    for (const { table, row } of this.log) {
      const id = (value: unknown) => (typeof value === "number" ? value : undefined);
      const product = id(table === "products" ? row.id : row.product_id);
      const variant = id(table === "variants" ? row.id : row.variant_id);
      if (product !== undefined) productIds.add(product);
      else if (variant !== undefined) variantIds.add(variant);
      else return undefined;
    }
    return { productIds: [...productIds], variantIds: [...variantIds] };
  }

  /** The statements of the log, each table's after its parents' (inserts satisfy foreign keys within one batch). */
  statements(upsertTables: ReadonlySet<SQLiteTable>): SQL[] {
    const byTable = new Map<string, TableOps>();
    for (const op of this.log) {
      let ops = byTable.get(op.table);
      if (!ops) {
        ops = { deletes: new Map(), inserts: [], insertColumns: new Set(), merges: new Map() };
        byTable.set(op.table, ops);
      }
      if (op.kind === "insert") {
        ops.inserts.push(op.row);
        for (const k of Object.keys(op.row)) ops.insertColumns.add(k);
        continue;
      }
      const id = op.keys.map((k) => String(op.row[k])).join("\u0000");
      if (op.kind === "delete") {
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
    for (const table of parentsFirst(
      [...byTable.keys()].map((name) => this.tables.get(name) as SQLiteTable),
    )) {
      out.push(
        ...tableStatements(table, byTable.get(getTableName(table)) as TableOps, upsertTables.has(table)),
      );
    }
    return out;
  }
}

/** A table's ops as statements; the log's rows and keys were checked against their table when logged. */
function tableStatements(table: SQLiteTable, ops: TableOps, upsert: boolean): SQL[] {
  const out: SQL[] = [];
  const deletesByKeys = new Map<string, JsonRow[]>();
  for (const { keys, row } of ops.deletes.values()) {
    const k = keys.join(",");
    const rows = deletesByKeys.get(k);
    if (rows) rows.push(row);
    else deletesByKeys.set(k, [row]);
  }
  for (const [keys, rows] of deletesByKeys) out.push(...deleteJson(table, keys.split(","), rows));
  out.push(...insertJson(table, [...ops.insertColumns], ops.inserts));
  const merges = [...ops.merges.values()];
  if (merges.length > 0 && ops.mergeKeys) {
    const keys = ops.mergeKeys;
    const columns = [...new Set(merges.flatMap((m) => Object.keys(m.row)))].filter((c) => !keys.includes(c));
    const rows = merges.map((m) => m.row);
    if (upsert) out.push(...upsertJson(table, keys, columns, rows));
    else out.push(...updateJson(table, keys, columns, rows));
  }
  return out;
}
