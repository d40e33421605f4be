import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { rowsWrittenBy } from "../../src/async/bulk/write-cost.ts";
import { statementCache } from "./database.ts";

/** One statement as the engine sent it to D1. */
export interface CapturedStatement {
  sql: string;
  params: SQLInputValue[];
}

/** One call into D1: a `batch` (one round trip however many statements) or a single statement. */
export interface RoundTrip {
  kind: "batch" | "single";
  statements: CapturedStatement[];
}

interface D1ResultLike {
  results: unknown[];
  success: true;
  meta: { changes: number; last_row_id: number; duration: number; rows_read: number; rows_written: number };
}

const bindable = (v: unknown): SQLInputValue => {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return v as SQLInputValue;
};

/**
 * Just enough of the D1 binding (prepare/bind/all/raw/first/run, batch) over node:sqlite for the
 * app's read paths, recording every statement and round trip. Runs the service's own code in Node,
 * so the statements captured are exactly the ones it sends to D1.
 */
export function recordingD1(db: DatabaseSync) {
  const trips: RoundTrip[] = [];
  const prepared = statementCache(db);

  const execute = (s: CapturedStatement, arrays: boolean): D1ResultLike => {
    const stmt = prepared(s.sql);
    const meta = { changes: 0, last_row_id: 0, duration: 0, rows_read: 0, rows_written: 0 };
    if (stmt.columns().length > 0) {
      stmt.setReturnArrays(arrays);
      return { results: stmt.all(...s.params), success: true, meta };
    }
    const run = stmt.run(...s.params);
    const changes = Number(run.changes);
    return {
      results: [],
      success: true,
      // node:sqlite counts no written rows: the model dry runs use, which tests check against D1's.
      meta: {
        ...meta,
        changes,
        last_row_id: Number(run.lastInsertRowid),
        rows_written: changes > 0 ? rowsWrittenBy(s, changes) : 0,
      },
    };
  };

  class Statement {
    readonly sql: string;
    readonly params: SQLInputValue[];
    constructor(sql: string, params: SQLInputValue[] = []) {
      this.sql = sql;
      this.params = params;
    }
    bind(...values: unknown[]) {
      return new Statement(this.sql, values.map(bindable));
    }
    private single(arrays: boolean) {
      trips.push({ kind: "single", statements: [{ sql: this.sql, params: this.params }] });
      return execute(this, arrays);
    }
    async all() {
      return this.single(false);
    }
    async raw(options?: { columnNames?: boolean }) {
      const rows = this.single(true).results as unknown[][];
      if (!options?.columnNames) return rows;
      return [
        prepared(this.sql)
          .columns()
          .map((c) => c.name),
        ...rows,
      ];
    }
    async first(column?: string) {
      const row = this.single(false).results[0] as Record<string, unknown> | undefined;
      if (row === undefined) return null;
      return column === undefined ? row : (row[column] ?? null);
    }
    async run() {
      return this.single(false);
    }
  }

  const d1 = {
    prepare: (sql: string) => new Statement(sql),
    async batch(statements: Statement[]) {
      trips.push({ kind: "batch", statements: statements.map((s) => ({ sql: s.sql, params: s.params })) });
      db.exec("SAVEPOINT d1_batch");
      try {
        const out = statements.map((s) => execute(s, false));
        db.exec("RELEASE d1_batch");
        return out;
      } catch (err) {
        db.exec("ROLLBACK TO d1_batch");
        db.exec("RELEASE d1_batch");
        throw err;
      }
    },
    async exec(sql: string) {
      trips.push({ kind: "single", statements: [{ sql, params: [] }] });
      db.exec(sql);
      return { count: 1, duration: 0 };
    },
  };

  return {
    d1,
    /** The round trips recorded since the last call. */
    take(): RoundTrip[] {
      return trips.splice(0, trips.length);
    },
  };
}
