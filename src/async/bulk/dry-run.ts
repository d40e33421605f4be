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
 * What a dry run counted as applied so far, in the order a real run would have committed it: the
 * statements of those effects, replayed in front of every later rehearsal (a UNIQUE conflict with
 * an earlier record fails the batch as in a real run), and the rows they wrote, which each
 * processor lays over what its lookups read (D1 returns no rows from a batch that rolls back, so
 * the reads themselves cannot see those writes).
 */
export interface DryRunMemory {
  effects: Compiled[];
  rows: RowOp[];
}

/** The columns of the rows a dry run remembers: the keys and the fields the bulk lookups read. */
const REMEMBERED: Readonly<Record<string, readonly string[]>> = {
  products: ["id", "internal_id", "product_structure", "supplier_id"],
  variants: ["id", "product_id", "internal_id"],
  product_translations: ["product_id", "locale", "slug"],
  variant_prices: ["variant_id", "market"],
  price_list_variant_prices: ["price_list_id", "variant_id"],
};

/** Row ops per stored row: a group of 2,000 records stays far below D1's 1 MB per value. */
const ROWS_PER_ENTRY = 2000;

/** The job's memory (job_dry_run_effects), one query. */
export async function loadDryRun(d1: D1Database, jobId: string): Promise<DryRunMemory> {
  const entries = await rawAll<{ query: string | null; params: string | null; rows: string | null }>(
    d1,
    sql`SELECT query, params, rows FROM job_dry_run_effects WHERE job_id = ${jobId} ORDER BY id`,
  );
  const memory: DryRunMemory = { effects: [], rows: [] };
  for (const e of entries) {
    if (e.query !== null) memory.effects.push({ sql: e.query, params: JSON.parse(e.params ?? "[]") });
    if (e.rows !== null) memory.rows.push(...(JSON.parse(e.rows) as RowOp[]));
  }
  return memory;
}

const MARKER = "dry_run_rollback";
/** Fails whenever it runs, naming itself in SQLite's error text: the last statement of a rehearsal. */
const rollback = sql.raw(`SELECT json_extract('{}', '$${MARKER}')`);

/**
 * Commits a dry run's bookkeeping (`books`, the ledger row first) for a plan whose effects are
 * `statements` and `ops`. The effects run in one D1 batch (one transaction) after every earlier
 * effect of the job, and a final statement fails it on purpose, so nothing commits. Any other error
 * (a UNIQUE violation, say) is the one a real run's batch would have raised, and is thrown as such:
 * the caller treats it exactly as in a real run. Then the books commit with the effects remembered,
 * in one batch: a redelivered message fails on the ledger row and remembers nothing twice.
 */
export async function commitDryRun(
  d1: D1Database,
  jobId: string,
  memory: DryRunMemory,
  books: SQL[],
  statements: SQL[],
  ops: RowOps | undefined,
): Promise<void> {
  const effects = statements.map(compile);
  if (effects.length > 0) await rehearse(d1, [...memory.effects, ...effects]);
  const rows = ops?.project(REMEMBERED) ?? [];
  const entries: JsonRow[] = effects.map((e) => ({
    job_id: jobId,
    query: e.sql,
    params: JSON.stringify(e.params),
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_ENTRY)
    entries.push({ job_id: jobId, rows: JSON.stringify(rows.slice(i, i + ROWS_PER_ENTRY)) });
  await rawBatch(d1, [
    ...books,
    ...insertJson("job_dry_run_effects", ["job_id", "query", "params", "rows"], entries),
  ]);
  memory.effects.push(...effects);
  memory.rows.push(...rows);
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
