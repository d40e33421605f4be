import { getTableName, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Compiled, rawAll } from "../../db/raw.ts";
import {
  jobDryRunEffects,
  priceListVariantPrices,
  productCategories,
  productImages,
  products,
  productTranslations,
  variantPrices,
  variants,
  variantTranslations,
} from "../../db/schema/index.ts";
import type { SqlColumn, SqlRow } from "../../db/sql-row.ts";
import { insertJson, type JsonRow } from "./bulk-sql.ts";
import type { RowOp, RowOps } from "./row-ops.ts";

/*
 * A dry run's memory of what it counted as applied (job_dry_run_effects): written with each
 * commit's ledger row by commitDryRun (dry-run.ts), read by every later message of the job.
 */

/**
 * What a dry run counted as applied so far, in the order a real run would have committed it. The
 * rows those effects wrote (`rows`), which each processor lays over what its lookups read: D1
 * returns no rows from a batch that rolls back, so the reads themselves cannot see those writes.
 * The statements of the effects (`effects`, read only when needed) replay in front of a rehearsal
 * that could meet them: `tokens` name every key, unique value and row they wrote.
 */
export interface DryRunMemory {
  jobId: string;
  rows: RowOp[];
  tokens: Set<string>;
  /** An earlier record changed a product's supplier (and so its variants'): every rehearsal replays. */
  replayAlways: boolean;
  /** Whether any effect was remembered yet. */
  empty: boolean;
  effects?: Compiled[];
}

/**
 * Entries keyed by a table's SQL name (as RowOp names it) over its SQL columns: a misspelt table or
 * column does not compile.
 */
const constraints = <T extends SQLiteTable>(
  table: T,
  key: SqlColumn<T>[],
  unique: SqlColumn<T>[][] = [],
): [string, { key: string[]; unique: string[][] }] => [getTableName(table), { key, unique }];
const columns = <T extends SQLiteTable>(
  table: T,
  names: readonly SqlColumn<T>[],
): [string, readonly string[]] => [getTableName(table), names];

/**
 * Per table, the primary key and the UNIQUE column sets a later write can meet. `variants` is
 * UNIQUE on (supplier_id, sku COLLATE NOCASE): compared here by the lowercased sku alone, which
 * finds every such meeting and a few more (a replay too many costs time, never exactness).
 */
const CONSTRAINTS: Readonly<Record<string, { key: string[]; unique: string[][] }>> = Object.fromEntries([
  constraints(products, ["id"], [["internal_id"]]),
  constraints(variants, ["id"], [["internal_id"], ["sku"]]),
  constraints(productTranslations, ["product_id", "locale"], [["locale", "slug"]]),
  constraints(variantTranslations, ["variant_id", "locale"]),
  constraints(variantPrices, ["variant_id", "market"]),
  constraints(priceListVariantPrices, ["price_list_id", "variant_id"]),
]);
/** Rows that reference a product or a variant meet the effects that wrote it (their parent). */
const PARENTS = { product_id: getTableName(products), variant_id: getTableName(variants) } as const;

/**
 * The columns of the rows a dry run remembers: what the bulk lookups read, keys and unique values.
 * A variant's translations are not: a later write to them names the variant, which is remembered.
 */
const REMEMBERED: Readonly<Record<string, readonly string[]>> = Object.fromEntries([
  columns(products, ["id", "internal_id", "product_structure", "supplier_id"]),
  columns(variants, ["id", "product_id", "internal_id", "sku", "supplier_id"]),
  columns(productTranslations, ["product_id", "locale", "slug"]),
  columns(variantPrices, ["variant_id", "market"]),
  columns(priceListVariantPrices, ["price_list_id", "variant_id"]),
]);
/** What a plan's rows are compared by: the remembered columns, and the parents of any other row. */
const COMPARED: Readonly<Record<string, readonly string[]>> = {
  ...REMEMBERED,
  ...Object.fromEntries([
    columns(variantTranslations, ["variant_id", "locale"]),
    columns(productCategories, ["product_id"]),
    columns(productImages, ["product_id"]),
  ]),
};

/*
 * Remembered ops are stored as arrays, [kind, table, ...the table's REMEMBERED values] with `false`
 * for a column a merge did not write: a 10 MB products payload remembers about 70,000 ops, which
 * every later message reads; as objects they took 11 MB and 1.5 s a message to read and parse.
 */
const KINDS = ["insert", "merge", "delete"] as const;
type StoredOp = [kind: number, table: string, ...values: unknown[]];

const store = (op: RowOp): StoredOp => [
  KINDS.indexOf(op.kind),
  op.table,
  ...(REMEMBERED[op.table] ?? []).map((c) => (op.row[c] === undefined ? false : op.row[c])),
];

function restore([kind, table, ...stored]: StoredOp): RowOp {
  const row: JsonRow = {};
  (REMEMBERED[table] ?? []).forEach((c, i) => {
    if (stored[i] !== false) row[c] = stored[i];
  });
  const k = KINDS[kind] as RowOp["kind"];
  return k === "insert" ? { kind: k, table, row } : { kind: k, table, keys: [], row };
}

const present = (row: JsonRow, columns: readonly string[]) =>
  columns.every((c) => row[c] !== undefined && row[c] !== null);
const values = (row: JsonRow, columns: readonly string[]) =>
  columns.map((c) => String(row[c]).toLowerCase()).join("\u0000");

/** The keys, unique values and parent rows an op's row names. */
function tokensOf({ table, row }: RowOp): string[] {
  const out: string[] = [];
  const c = CONSTRAINTS[table];
  if (c && present(row, c.key)) out.push(`${table}#${values(row, c.key)}`);
  for (const unique of c?.unique ?? [])
    if (present(row, unique)) out.push(`${table}.${unique.join(",")}=${values(row, unique)}`);
  for (const [column, parent] of Object.entries(PARENTS))
    if (row[column] != null) out.push(`${parent}#${String(row[column])}`);
  return out;
}

function remember(memory: DryRunMemory, rows: RowOp[]) {
  for (const op of rows) {
    memory.rows.push(op);
    for (const t of tokensOf(op)) memory.tokens.add(t);
    if (op.table === getTableName(products) && op.kind === "merge" && op.row.supplier_id !== undefined)
      memory.replayAlways = true;
  }
}

/** Row ops per stored row: a group of 2,000 records stays far below D1's 1 MB per value. */
const ROWS_PER_ENTRY = 2000;

/**
 * The memory this isolate last read, by job (a job's messages usually run one after another in one
 * isolate): a later message reads only the entries stored since (their ids only grow). Parsing the
 * whole memory again took up to 1 s a message by the end of a 10 MB products payload. Two jobs at
 * most (about 15 MB of heap each at that size); the database stays the only truth.
 */
const recent = new Map<string, { lastId: number; memory: DryRunMemory }>();
const RECENT_JOBS = 2;

/** The rows the job's earlier effects wrote (job_dry_run_effects), one query. */
export async function loadDryRun(d1: D1Database, jobId: string): Promise<DryRunMemory> {
  const known = recent.get(jobId);
  const entries = await rawAll<{ id: number; rows: string | null }>(
    d1,
    sql`SELECT id, rows FROM job_dry_run_effects WHERE job_id = ${jobId} AND id > ${known?.lastId ?? 0} ORDER BY id`,
  );
  // Another message of the job in this isolate may have read some of these meanwhile.
  const current = recent.get(jobId);
  const lastId = current?.lastId ?? 0;
  const memory = current?.memory ?? {
    jobId,
    rows: [],
    tokens: new Set<string>(),
    replayAlways: false,
    empty: true,
  };
  const unseen = entries.filter((e) => e.id > lastId);
  for (const e of unseen)
    if (e.rows !== null) remember(memory, (JSON.parse(e.rows) as StoredOp[]).map(restore));
  memory.empty &&= unseen.length === 0;
  recent.delete(jobId);
  recent.set(jobId, { lastId: unseen.at(-1)?.id ?? lastId, memory });
  for (const job of recent.keys()) if (recent.size > RECENT_JOBS) recent.delete(job);
  // This invocation adds to its own copy: the kept one holds stored entries only.
  return { ...memory, rows: [...memory.rows], tokens: new Set(memory.tokens) };
}

/** The statements of every earlier effect, read once per invocation and only when needed. */
export async function earlierEffects(d1: D1Database, memory: DryRunMemory): Promise<Compiled[]> {
  if (!memory.effects) {
    const entries = await rawAll<{ query: string; params: string }>(
      d1,
      sql`SELECT query, params FROM job_dry_run_effects
        WHERE job_id = ${memory.jobId} AND query IS NOT NULL ORDER BY id`,
    );
    memory.effects = entries.map((e) => ({ sql: e.query, params: JSON.parse(e.params) as unknown[] }));
  }
  return memory.effects;
}

/** Whether a plan's rows share a key, a unique value or a parent row with the earlier effects. */
export const meetsEarlierEffects = (memory: DryRunMemory, ops: RowOps | undefined) =>
  !ops ||
  memory.replayAlways ||
  ops.project(COMPARED).some((op) => tokensOf(op).some((t) => memory.tokens.has(t)));

/**
 * The inserts storing a plan's effects and rows (to commit with its ledger row), and `remember`,
 * which adds them to this invocation's memory once they have committed.
 */
export function memoryEntry(memory: DryRunMemory, effects: Compiled[], ops: RowOps | undefined) {
  const rows = ops?.project(REMEMBERED) ?? [];
  const entries: SqlRow<typeof jobDryRunEffects>[] = effects.map((e) => ({
    job_id: memory.jobId,
    query: e.sql,
    params: JSON.stringify(e.params),
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_ENTRY)
    entries.push({
      job_id: memory.jobId,
      rows: JSON.stringify(rows.slice(i, i + ROWS_PER_ENTRY).map(store)),
    });
  return {
    inserts: insertJson(jobDryRunEffects, ["job_id", "query", "params", "rows"], entries),
    remember: () => {
      memory.effects?.push(...effects);
      memory.empty &&= entries.length === 0;
      remember(memory, rows);
    },
  };
}

/**
 * The remembered rows of `table` by their `keys` (joined by NUL), folded in order: an insert sets
 * the row, a merge adds its fields, a delete leaves null (the row is gone). A key absent from the
 * map was not written; a merged row not inserted before holds only the fields written.
 */
export function rememberedRows<T extends SQLiteTable>(
  memory: DryRunMemory,
  sqlTable: T,
  keys: readonly SqlColumn<T>[],
) {
  const table = getTableName(sqlTable);
  const out = new Map<string, JsonRow | null>();
  for (const op of memory.rows) {
    if (op.table !== table) continue;
    const key = rowKey(op.row, keys);
    if (op.kind === "delete") out.set(key, null);
    else if (op.kind === "insert") out.set(key, op.row);
    else out.set(key, { ...(out.get(key) ?? {}), ...op.row });
  }
  return out;
}

export const rowKey = (row: JsonRow, keys: readonly string[]) =>
  keys.map((k) => String(row[k])).join("\u0000");

/**
 * Lays the remembered price rows (variant_prices) over `markets`, each variant's markets with a
 * price as the lookups read them; a variant only a remembered write priced gets its own entry.
 */
export function layRememberedMarkets(memory: DryRunMemory, markets: Map<number, Set<string>>) {
  for (const [key, row] of rememberedRows(memory, variantPrices, ["variant_id", "market"])) {
    const [variant, market] = key.split("\u0000") as [string, string];
    const id = Number(variant);
    const set = markets.get(id) ?? new Set<string>();
    markets.set(id, set);
    if (row === null) set.delete(market);
    else set.add(market);
  }
}
