import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { type Compiled, compile, rawAll, rawBatch } from "../../db/raw.ts";
import { describeError } from "../../lib/errors.ts";
import { insertJson, type JsonRow } from "./bulk-sql.ts";
import type { RowOp, RowOps } from "./row-ops.ts";

/**
 * `options.dry_run`, offered by every bulk operation (bulk.routes.ts adds it to each operation's
 * options): the job runs as usual but its effects are rolled back.
 */
export const dryRunOption = {
  dry_run: z.boolean().optional().openapi({
    description:
      "Validate and match every record as a real run would and write the same log entries, summary and status, but change nothing and fire no webhook; the job's `dry_run` field (`fields=dry_run`) is true. Records are judged as in a real run of the same payload on the same data, after what every earlier record of the payload would have written (a product created and matched again further on, two records claiming one internal id). Default false.",
  }),
};

/** Whether the stored options of a job (or a bulk body's `options`) ask for a dry run. */
export const isDryRun = (options: unknown) =>
  typeof options === "object" && options !== null && (options as { dry_run?: unknown }).dry_run === true;

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
 * Per table, the primary key and the UNIQUE column sets a later write can meet. `variants` is
 * UNIQUE on (supplier_id, sku COLLATE NOCASE): compared here by the lowercased sku alone, which
 * finds every such meeting and a few more (a replay too many costs time, never exactness).
 */
const CONSTRAINTS: Readonly<Record<string, { key: string[]; unique: string[][] }>> = {
  products: { key: ["id"], unique: [["internal_id"]] },
  variants: { key: ["id"], unique: [["internal_id"], ["sku"]] },
  product_translations: { key: ["product_id", "locale"], unique: [["locale", "slug"]] },
  variant_translations: { key: ["variant_id", "locale"], unique: [] },
  variant_prices: { key: ["variant_id", "market"], unique: [] },
  price_list_variant_prices: { key: ["price_list_id", "variant_id"], unique: [] },
};
/** Rows that reference a product or a variant meet the effects that wrote it (their parent). */
const PARENTS = { product_id: "products", variant_id: "variants" } as const;

/** The columns of the rows a dry run remembers: keys, unique values, and what the bulk lookups read. */
const REMEMBERED: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    Object.entries(CONSTRAINTS).map(([table, c]) => [table, [...new Set([...c.key, ...c.unique.flat()])]]),
  ),
  products: ["id", "internal_id", "product_structure", "supplier_id"],
  variants: ["id", "product_id", "internal_id", "sku", "supplier_id"],
};
/** What a plan's rows are compared by: the remembered columns, and the parents of any other row. */
const COMPARED: Readonly<Record<string, readonly string[]>> = {
  ...REMEMBERED,
  product_categories: ["product_id"],
  product_images: ["product_id"],
};

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
    if (op.table === "products" && op.kind === "merge" && op.row.supplier_id !== undefined)
      memory.replayAlways = true;
  }
}

/** Row ops per stored row: a group of 2,000 records stays far below D1's 1 MB per value. */
const ROWS_PER_ENTRY = 2000;

/** The rows the job's earlier effects wrote (job_dry_run_effects), one query. */
export async function loadDryRun(d1: D1Database, jobId: string): Promise<DryRunMemory> {
  const entries = await rawAll<{ rows: string | null }>(
    d1,
    sql`SELECT rows FROM job_dry_run_effects WHERE job_id = ${jobId} ORDER BY id`,
  );
  const memory: DryRunMemory = {
    jobId,
    rows: [],
    tokens: new Set(),
    replayAlways: false,
    empty: entries.length === 0,
  };
  for (const e of entries) if (e.rows !== null) remember(memory, JSON.parse(e.rows) as RowOp[]);
  return memory;
}

async function effectsOf(d1: D1Database, memory: DryRunMemory): Promise<Compiled[]> {
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

const MARKER = "dry_run_rollback";
/** Fails whenever it runs, naming itself in SQLite's error text: the last statement of a rehearsal. */
const rollback = sql.raw(`SELECT json_extract('{}', '$${MARKER}')`);

/**
 * Commits a dry run's bookkeeping (`books`, the ledger row first) for a plan whose effects are
 * `statements` and `ops`. The effects run in one D1 batch (one transaction) that a final statement
 * fails on purpose, so nothing commits, after every earlier effect of the job that they could meet
 * (a key, a unique value or a parent row in common; otherwise those change nothing about whether
 * this batch succeeds). Any other error (a UNIQUE violation, say) is the one a real run's batch
 * would have raised, and is thrown as such: the caller treats it exactly as in a real run. Then the
 * books commit with the effects remembered, in one batch: a redelivered message fails on the
 * ledger row and remembers nothing twice.
 */
export async function commitDryRun(
  d1: D1Database,
  memory: DryRunMemory,
  books: SQL[],
  statements: SQL[],
  ops: RowOps | undefined,
): Promise<void> {
  const effects = statements.map(compile);
  if (effects.length > 0) {
    const meets =
      !ops ||
      memory.replayAlways ||
      ops.project(COMPARED).some((op) => tokensOf(op).some((t) => memory.tokens.has(t)));
    if (memory.empty) {
      await rehearse(d1, effects);
    } else if (meets) {
      await rehearse(d1, [...(await effectsOf(d1, memory)), ...effects]);
    } else {
      // Alone, a batch can also fail where the earlier effects would have freed a unique value.
      await rehearse(d1, effects).catch(async () =>
        rehearse(d1, [...(await effectsOf(d1, memory)), ...effects]),
      );
    }
  }
  const rows = ops?.project(REMEMBERED) ?? [];
  const entries: JsonRow[] = effects.map((e) => ({
    job_id: memory.jobId,
    query: e.sql,
    params: JSON.stringify(e.params),
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_ENTRY)
    entries.push({ job_id: memory.jobId, rows: JSON.stringify(rows.slice(i, i + ROWS_PER_ENTRY)) });
  await rawBatch(d1, [
    ...books,
    ...insertJson("job_dry_run_effects", ["job_id", "query", "params", "rows"], entries),
  ]);
  memory.effects?.push(...effects);
  memory.empty &&= entries.length === 0;
  remember(memory, rows);
}

async function rehearse(d1: D1Database, statements: Compiled[]): Promise<void> {
  try {
    await rawBatch(d1, [...statements, rollback]);
  } catch (err) {
    if (describeError(err).includes(MARKER)) return;
    throw err;
  }
  throw new Error("a dry run's rollback statement did not fail: its effects may have committed");
}

/**
 * The remembered rows of `table` by their `keys` (joined by NUL), folded in order: an insert sets
 * the row, a merge adds its fields, a delete leaves null (the row is gone). A key absent from the
 * map was not written; a merged row not inserted before holds only the fields written.
 */
export function rememberedRows(memory: DryRunMemory, table: string, keys: readonly string[]) {
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
  for (const [key, row] of rememberedRows(memory, "variant_prices", ["variant_id", "market"])) {
    const [variant, market] = key.split("\u0000") as [string, string];
    const id = Number(variant);
    const set = markets.get(id) ?? new Set<string>();
    markets.set(id, set);
    if (row === null) set.delete(market);
    else set.add(market);
  }
}
