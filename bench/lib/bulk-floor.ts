import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { openDb, statementCache } from "./database.ts";

/** Rows of one table, read from the server's database after a job, to write again on the copy. */
interface TableRows {
  table: string;
  columns: string[];
  rows: SQLInputValue[][];
}

export interface BulkFloor {
  ms: number;
  rows: number;
  tables: Record<string, number>;
}

const ids = (values: number[]) => JSON.stringify(values);

function readRows(db: DatabaseSync, table: string, where: string, param: string): TableRows {
  const stmt = db.prepare(`SELECT * FROM "${table}" WHERE ${where}`);
  stmt.setReturnArrays(true);
  return {
    table,
    columns: stmt.columns().map((c) => c.name),
    rows: stmt.all(param) as unknown as SQLInputValue[][],
  };
}

const inIds = (column: string) => `"${column}" IN (SELECT value FROM json_each(?))`;

/** Times `write` in one transaction on the floor copy (prepared statements, one row per execution). */
function timed(floorFile: string, write: (db: DatabaseSync) => number): { ms: number; rows: number } {
  const db = openDb(floorFile);
  try {
    const started = performance.now();
    db.exec("BEGIN");
    const rows = write(db);
    db.exec("COMMIT");
    return { ms: performance.now() - started, rows };
  } finally {
    db.close();
  }
}

/**
 * Floor of the products upsert: every row the job created (products, their translations, variants,
 * variant translations and prices, read back from the server's database) inserted on the copy
 * taken before the job, in one transaction.
 */
export function productsFloor(serverFile: string, floorFile: string, internalIdPrefix: string): BulkFloor {
  const source = openDb(serverFile, true);
  let tables: TableRows[];
  try {
    const productIds = (
      source
        .prepare("SELECT id FROM products WHERE internal_id LIKE ? ORDER BY id")
        .all(`${internalIdPrefix}%`) as {
        id: number;
      }[]
    ).map((r) => r.id);
    const variantIds = (
      source
        .prepare(`SELECT id FROM variants WHERE ${inIds("product_id")} ORDER BY id`)
        .all(ids(productIds)) as {
        id: number;
      }[]
    ).map((r) => r.id);
    tables = [
      readRows(source, "products", inIds("id"), ids(productIds)),
      readRows(source, "product_translations", inIds("product_id"), ids(productIds)),
      readRows(source, "product_images", inIds("product_id"), ids(productIds)),
      readRows(source, "product_categories", inIds("product_id"), ids(productIds)),
      readRows(source, "variants", inIds("id"), ids(variantIds)),
      readRows(source, "variant_translations", inIds("variant_id"), ids(variantIds)),
      readRows(source, "variant_prices", inIds("variant_id"), ids(variantIds)),
    ];
  } finally {
    source.close();
  }
  const result = timed(floorFile, (db) => {
    const prepared = statementCache(db);
    let n = 0;
    for (const t of tables) {
      const sql = `INSERT INTO "${t.table}" (${t.columns.map((c) => `"${c}"`).join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`;
      for (const row of t.rows) {
        prepared(sql).run(...row);
        n++;
      }
    }
    return n;
  });
  return { ...result, tables: Object.fromEntries(tables.map((t) => [t.table, t.rows.length])) };
}

/**
 * Floor of the variants update: the final stock of each updated variant, its prices in the markets
 * sent (upserted) and the touched products' `updated_at`, written on the copy in one transaction.
 */
export function variantsFloor(
  serverFile: string,
  floorFile: string,
  variantIds: number[],
  markets: string[],
): BulkFloor {
  const source = openDb(serverFile, true);
  let variants: SQLInputValue[][];
  let prices: SQLInputValue[][];
  let products: SQLInputValue[][];
  try {
    const v = source.prepare(
      `SELECT supplier_stock, warehouse_stock, updated_at, id FROM variants WHERE ${inIds("id")}`,
    );
    v.setReturnArrays(true);
    variants = v.all(ids(variantIds)) as unknown as SQLInputValue[][];
    const p = source.prepare(
      `SELECT variant_id, market, currency, list_price, offer_price FROM variant_prices
       WHERE ${inIds("variant_id")} AND market IN (SELECT value FROM json_each(?))`,
    );
    p.setReturnArrays(true);
    prices = p.all(ids(variantIds), JSON.stringify(markets)) as unknown as SQLInputValue[][];
    const pr = source.prepare(
      `SELECT updated_at, id FROM products WHERE id IN (SELECT product_id FROM variants WHERE ${inIds("id")})`,
    );
    pr.setReturnArrays(true);
    products = pr.all(ids(variantIds)) as unknown as SQLInputValue[][];
  } finally {
    source.close();
  }
  const result = timed(floorFile, (db) => {
    const updateVariant = db.prepare(
      "UPDATE variants SET supplier_stock = ?, warehouse_stock = ?, updated_at = ? WHERE id = ?",
    );
    const upsertPrice = db.prepare(
      `INSERT INTO variant_prices (variant_id, market, currency, list_price, offer_price) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (variant_id, market) DO UPDATE SET list_price = excluded.list_price, offer_price = excluded.offer_price`,
    );
    const touchProduct = db.prepare("UPDATE products SET updated_at = ? WHERE id = ?");
    for (const row of variants) updateVariant.run(...row);
    for (const row of prices) upsertPrice.run(...row);
    for (const row of products) touchProduct.run(...row);
    return variants.length + prices.length + products.length;
  });
  return {
    ...result,
    tables: { variants: variants.length, variant_prices: prices.length, products: products.length },
  };
}

/**
 * Floor of a clearing update (a market's price or a locale's variant name removed): each row deleted
 * by its primary key, and the updated variants' and touched products' `updated_at` (read back from
 * the server's database) written, on the copy in one transaction.
 */
export function clearingFloor(
  serverFile: string,
  floorFile: string,
  variantIds: number[],
  target:
    | { table: "variant_prices"; column: "market"; value: string }
    | {
        table: "variant_translations";
        column: "locale";
        value: string;
      },
): BulkFloor {
  const source = openDb(serverFile, true);
  let variants: SQLInputValue[][];
  let products: SQLInputValue[][];
  try {
    const v = source.prepare(`SELECT updated_at, id FROM variants WHERE ${inIds("id")}`);
    v.setReturnArrays(true);
    variants = v.all(ids(variantIds)) as unknown as SQLInputValue[][];
    const pr = source.prepare(
      `SELECT updated_at, id FROM products WHERE id IN (SELECT product_id FROM variants WHERE ${inIds("id")})`,
    );
    pr.setReturnArrays(true);
    products = pr.all(ids(variantIds)) as unknown as SQLInputValue[][];
  } finally {
    source.close();
  }
  let deleted = 0;
  const result = timed(floorFile, (db) => {
    const remove = db.prepare(
      `DELETE FROM "${target.table}" WHERE variant_id = ? AND "${target.column}" = ?`,
    );
    const touchVariant = db.prepare("UPDATE variants SET updated_at = ? WHERE id = ?");
    const touchProduct = db.prepare("UPDATE products SET updated_at = ? WHERE id = ?");
    for (const id of variantIds) deleted += Number(remove.run(id, target.value).changes);
    for (const row of variants) touchVariant.run(...row);
    for (const row of products) touchProduct.run(...row);
    return deleted + variants.length + products.length;
  });
  return {
    ...result,
    tables: { [target.table]: deleted, variants: variants.length, products: products.length },
  };
}
