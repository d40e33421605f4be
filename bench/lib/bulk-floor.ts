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

function readRows(db: DatabaseSync, table: string, where: string, ...params: string[]): TableRows {
  const stmt = db.prepare(`SELECT * FROM "${table}" WHERE ${where}`);
  stmt.setReturnArrays(true);
  return {
    table,
    columns: stmt.columns().map((c) => c.name),
    rows: stmt.all(...params) as unknown as SQLInputValue[][],
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

/** `INSERT … ON CONFLICT DO UPDATE` of whole rows: a create inserts, an update overwrites in place. */
const upsertSql = (t: TableRows) =>
  `INSERT INTO "${t.table}" (${t.columns.map((c) => `"${c}"`).join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})
   ON CONFLICT DO UPDATE SET ${t.columns.map((c) => `"${c}" = excluded."${c}"`).join(", ")}`;

/**
 * Floor of the products upsert: every row the job wrote (the products it created or updated, their
 * translations in the locales sent, categories, images, variants, variant translations and prices
 * in the markets sent, read back from the server's database) written on the copy taken before the
 * job, in one transaction: the updated products' categories and images deleted first (they are
 * replaced), then each row upserted.
 */
export function productsFloor(
  serverFile: string,
  floorFile: string,
  o: { internalIdPrefix: string; updatedInternalIds: string[]; locales: string[]; markets: string[] },
): BulkFloor {
  const source = openDb(serverFile, true);
  let tables: TableRows[];
  let updatedIds: number[];
  try {
    const idsOf = (sql: string, ...params: SQLInputValue[]) =>
      (source.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id);
    updatedIds = idsOf(
      `SELECT id FROM products WHERE ${inIds("internal_id")} ORDER BY id`,
      JSON.stringify(o.updatedInternalIds),
    );
    const productIds = [
      ...idsOf("SELECT id FROM products WHERE internal_id LIKE ? ORDER BY id", `${o.internalIdPrefix}%`),
      ...updatedIds,
    ];
    const variantIds = idsOf(
      `SELECT id FROM variants WHERE ${inIds("product_id")} ORDER BY id`,
      ids(productIds),
    );
    const sent = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;
    const withLocales = (table: string, key: string, keyIds: number[]) =>
      readRows(source, table, `${inIds(key)} AND ${sent("locale")}`, ids(keyIds), JSON.stringify(o.locales));
    tables = [
      readRows(source, "products", inIds("id"), ids(productIds)),
      withLocales("product_translations", "product_id", productIds),
      readRows(source, "product_images", inIds("product_id"), ids(productIds)),
      readRows(source, "product_categories", inIds("product_id"), ids(productIds)),
      readRows(source, "variants", inIds("id"), ids(variantIds)),
      withLocales("variant_translations", "variant_id", variantIds),
      readRows(
        source,
        "variant_prices",
        `${inIds("variant_id")} AND ${sent("market")}`,
        ids(variantIds),
        JSON.stringify(o.markets),
      ),
    ];
  } finally {
    source.close();
  }
  const result = timed(floorFile, (db) => {
    const prepared = statementCache(db);
    let n = 0;
    for (const table of ["product_categories", "product_images"]) {
      const remove = db.prepare(`DELETE FROM "${table}" WHERE product_id = ?`);
      for (const id of updatedIds) n += Number(remove.run(id).changes);
    }
    for (const t of tables) {
      const sql = upsertSql(t);
      for (const row of t.rows) {
        prepared(sql).run(...row);
        n++;
      }
    }
    return n;
  });
  return { ...result, tables: Object.fromEntries(tables.map((t) => [t.table, t.rows.length])) };
}

/** A realistic variants update record (bench/lib/bulk.ts variantsPayload). */
interface VariantRecord {
  id: number;
  warehouse_stock: number;
  supplier_stock: number;
  prices: Record<
    string,
    { list_price: { amount: string; currency: string }; offer_price?: { amount: string } | null } | null
  >;
  translations?: Record<string, { name: string } | null>;
}

/**
 * Floor of the variants update: each record of the payload, in order, written on the copy in one
 * transaction with one prepared execution per row: the variant's stock and `updated_at`, each
 * market price upserted (list and offer as sent) or deleted (`null`), each variant name upserted or
 * deleted; then the touched products' `updated_at` (read back from the server's database).
 */
export function variantsFloor(serverFile: string, floorFile: string, body: string): BulkFloor {
  const records = (JSON.parse(body) as { variants: VariantRecord[] }).variants;
  const source = openDb(serverFile, true);
  let products: SQLInputValue[][];
  let updatedAt: string;
  const variantIds = [...new Set(records.map((r) => r.id))];
  try {
    const pr = source.prepare(
      `SELECT updated_at, id FROM products WHERE id IN (SELECT product_id FROM variants WHERE ${inIds("id")})`,
    );
    pr.setReturnArrays(true);
    products = pr.all(ids(variantIds)) as unknown as SQLInputValue[][];
    updatedAt = String(products[0]?.[0] ?? new Date().toISOString());
  } finally {
    source.close();
  }
  const tables = { variants: 0, variant_prices: 0, variant_translations: 0, products: products.length };
  const result = timed(floorFile, (db) => {
    const updateVariant = db.prepare(
      "UPDATE variants SET supplier_stock = ?, warehouse_stock = ?, updated_at = ? WHERE id = ?",
    );
    const upsertPrice = db.prepare(
      `INSERT INTO variant_prices (variant_id, market, currency, list_price, offer_price) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (variant_id, market) DO UPDATE SET list_price = excluded.list_price, offer_price = excluded.offer_price`,
    );
    const upsertListPrice = db.prepare(
      `INSERT INTO variant_prices (variant_id, market, currency, list_price) VALUES (?, ?, ?, ?)
       ON CONFLICT (variant_id, market) DO UPDATE SET list_price = excluded.list_price`,
    );
    const deletePrice = db.prepare("DELETE FROM variant_prices WHERE variant_id = ? AND market = ?");
    const upsertName = db.prepare(
      `INSERT INTO variant_translations (variant_id, locale, name) VALUES (?, ?, ?)
       ON CONFLICT (variant_id, locale) DO UPDATE SET name = excluded.name`,
    );
    const deleteName = db.prepare("DELETE FROM variant_translations WHERE variant_id = ? AND locale = ?");
    const touchProduct = db.prepare("UPDATE products SET updated_at = ? WHERE id = ?");
    for (const r of records) {
      updateVariant.run(r.supplier_stock, r.warehouse_stock, updatedAt, r.id);
      tables.variants++;
      for (const [market, price] of Object.entries(r.prices)) {
        if (price === null) deletePrice.run(r.id, market);
        else if (price.offer_price === undefined)
          upsertListPrice.run(r.id, market, price.list_price.currency, price.list_price.amount);
        else
          upsertPrice.run(
            r.id,
            market,
            price.list_price.currency,
            price.list_price.amount,
            price.offer_price?.amount ?? null,
          );
        tables.variant_prices++;
      }
      for (const [locale, entry] of Object.entries(r.translations ?? {})) {
        if (entry === null) deleteName.run(r.id, locale);
        else upsertName.run(r.id, locale, entry.name);
        tables.variant_translations++;
      }
    }
    for (const row of products) touchProduct.run(...row);
    return tables.variants + tables.variant_prices + tables.variant_translations + products.length;
  });
  return { ...result, tables };
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
