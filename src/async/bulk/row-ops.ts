import type { SQL } from "drizzle-orm";
import { PRODUCT_TABLES } from "../../db/schema/index.ts";
import { deleteJson, insertJson, type JsonRow, updateJson, upsertJson } from "./bulk-sql.ts";

/** Parents before children, so inserts satisfy foreign keys within one batch. */
const TABLE_ORDER: readonly string[] = [...PRODUCT_TABLES, "price_list_variant_prices"];

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
 */
export type RowOp =
  | { kind: "insert"; table: string; row: JsonRow }
  | { kind: "merge"; table: string; keys: string[]; row: JsonRow }
  | { kind: "delete"; table: string; keys: string[]; row: JsonRow };

export class RowOps {
  private readonly log: RowOp[] = [];

  insert(table: string, row: JsonRow) {
    this.log.push({ kind: "insert", table, row });
  }

  /** Update (and, for upsert tables, insert when missing) the row with these key columns. */
  merge(table: string, keys: string[], row: JsonRow) {
    this.log.push({ kind: "merge", table, keys, row });
  }

  delete(table: string, keys: string[], row: JsonRow) {
    this.log.push({ kind: "delete", table, keys, row });
  }

  /** Appends another record's ops (a record's ops join the chunk only when the record succeeds). */
  absorb(other: RowOps) {
    this.log.push(...other.log);
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

  statements(upsertTables: ReadonlySet<string>): SQL[] {
    const tables = new Map<string, TableOps>();
    for (const op of this.log) {
      let ops = tables.get(op.table);
      if (!ops) {
        ops = { deletes: new Map(), inserts: [], insertColumns: new Set(), merges: new Map() };
        tables.set(op.table, ops);
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
    const names = [...tables.keys()].sort((a, b) => TABLE_ORDER.indexOf(a) - TABLE_ORDER.indexOf(b));
    for (const table of names) {
      const ops = tables.get(table) as TableOps;
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
        const columns = [...new Set(merges.flatMap((m) => Object.keys(m.row)))].filter(
          (c) => !keys.includes(c),
        );
        const rows = merges.map((m) => m.row);
        if (upsertTables.has(table)) out.push(...upsertJson(table, keys, columns, rows));
        else out.push(...updateJson(table, keys, columns, rows));
      }
    }
    return out;
  }
}
