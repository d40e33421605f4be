import { DatabaseSync } from "node:sqlite";
import { PRODUCT_TABLES } from "../../src/db/schema/catalog.ts";
import type { Scenario } from "../scenarios.ts";
import { openDb } from "./database.ts";
import { parseServerTiming } from "./load.ts";

/** What a read costs in D1 rows read at two catalog sizes, and what a product weighs. */
export interface CostStage {
  scale: number;
  /** The compare catalog's scale; null when it was not run. */
  compareScale: number | null;
  rowsRead: RowsReadResult[];
  storage?: Storage;
}

interface RowsReadResult {
  key: string;
  /** Rows read (Server-Timing `d1-rows` of a warm answer) and items in its `data`, at each size. */
  main?: RowsReadProbe;
  compare?: RowsReadProbe;
}

export interface RowsReadProbe {
  status: number;
  rowsRead: number | null;
  roundTrips: number | null;
  /** Items in the answer's `data` (a list page), 1 for a single object. */
  items: number;
}

/**
 * Each read scenario requested `times` in a row (the first warms the isolate's caches); the rows
 * read of the last answer. No load: a served answer's `Server-Timing` is all it needs.
 */
export async function probeRowsRead(
  origin: string,
  secret: string,
  scenarios: Scenario[],
  times = 3,
): Promise<Map<string, RowsReadProbe>> {
  const out = new Map<string, RowsReadProbe>();
  for (const scenario of scenarios.filter((s) => s.kind === "read")) {
    let last: RowsReadProbe | undefined;
    for (let i = 0; i < times; i++) {
      const res = await fetch(origin + scenario.path, { headers: { authorization: `Bearer ${secret}` } });
      const body = (await res.json().catch(() => null)) as { data?: unknown[] } | null;
      const timing = parseServerTiming(res.headers.get("server-timing"));
      last = {
        status: res.status,
        rowsRead: timing.rowsRead,
        roundTrips: timing.roundTrips,
        items: Array.isArray(body?.data) ? body.data.length : 1,
      };
    }
    if (last) out.set(scenario.key, last);
  }
  return out;
}

/** Bytes of the tables (with their indexes) that make up a product, an order and a job log. */
export interface Storage {
  fileBytes: number;
  pageSize: number;
  products: number;
  variantsPerProduct: number;
  translationsPerProduct: number;
  pricesPerProduct: number;
  bytesPerProduct: number;
  orders: number;
  lineItemsPerOrder: number;
  bytesPerOrder: number;
  /** Measured on synthetic rows shaped like the seed's (a record's error log), with every index. */
  bytesPerJobLog: number;
  /** Every table with its indexes: bytes and rows. */
  tables: Record<string, { bytes: number; rows: number }>;
}

const ORDER_TABLES = ["orders", "order_line_items"];

/** Bytes per table (its b-tree and its indexes' b-trees, whole pages) from SQLite's `dbstat`. */
function bytesByTable(db: DatabaseSync): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT coalesce(m.tbl_name, s.name) AS tbl, sum(s.pgsize) AS bytes
       FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl`,
    )
    .all() as { tbl: string; bytes: number }[];
  return new Map(rows.map((r) => [r.tbl, Number(r.bytes)]));
}

export function measureStorage(sqliteFile: string): Storage {
  const db = openDb(sqliteFile, true);
  try {
    const count = (t: string) =>
      Number((db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n);
    const bytes = bytesByTable(db);
    const tables: Storage["tables"] = {};
    for (const [t, b] of [...bytes].sort((a, z) => z[1] - a[1])) {
      if (t.startsWith("sqlite_") || t.startsWith("_cf_")) continue;
      tables[t] = { bytes: b, rows: count(t) };
    }
    const sum = (names: readonly string[]) => names.reduce((n, t) => n + (bytes.get(t) ?? 0), 0);
    const products = count("products");
    const orders = count("orders");
    const pageSize = Number((db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
    const pageCount = Number((db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count);
    return {
      fileBytes: pageSize * pageCount,
      pageSize,
      products,
      variantsPerProduct: count("variants") / products,
      translationsPerProduct: (count("product_translations") + count("variant_translations")) / products,
      pricesPerProduct: count("variant_prices") / products,
      bytesPerProduct: sum(PRODUCT_TABLES) / products,
      orders,
      lineItemsPerOrder: count("order_line_items") / orders,
      bytesPerOrder: sum(ORDER_TABLES) / orders,
      bytesPerJobLog: jobLogBytes(db),
      tables,
    };
  } finally {
    db.close();
  }
}

/**
 * The seed holds a handful of job logs, too few to weigh by whole pages: this copies the table's
 * schema (and indexes) into a scratch database, writes 20,000 rows shaped like a record's error
 * log over 20 jobs, and weighs them.
 */
function jobLogBytes(source: DatabaseSync, n = 20_000): number {
  const ddl = source
    .prepare(
      "SELECT sql FROM sqlite_master WHERE tbl_name = 'job_logs' AND sql IS NOT NULL ORDER BY type DESC",
    )
    .all() as { sql: string }[];
  const scratch = new DatabaseSync(":memory:", { enableForeignKeyConstraints: false });
  try {
    for (const { sql } of ddl) scratch.exec(sql);
    const insert = scratch.prepare(
      `INSERT INTO job_logs (job_id, created_at, severity, code, message, identifiers, affected_fields)
       VALUES (?, ?, 'ERROR', 'INVALID_FIELD_VALUE', ?, ?, ?)`,
    );
    scratch.exec("BEGIN");
    for (let i = 0; i < n; i++) {
      insert.run(
        `00000000-0000-4000-8000-${String(i % 20).padStart(12, "0")}`,
        "2026-11-25T12:00:00Z",
        "variants.0.prices.market_en.list_price.currency: must be GBP, the currency of market_en",
        JSON.stringify({ product: { id: 100_000 + i, internal_id: `PRD-${100_000 + i}` } }),
        JSON.stringify(["variants.0.prices.market_en.list_price.currency"]),
      );
    }
    scratch.exec("COMMIT");
    return (bytesByTable(scratch).get("job_logs") ?? 0) / n;
  } finally {
    scratch.close();
  }
}
