import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { rawBatch } from "../../db/raw.ts";
import { describeError } from "../../lib/errors.ts";

/**
 * `options.dry_run`, offered by every bulk operation (bulk.routes.ts adds it to each operation's
 * options): the job runs as usual but its effects are rolled back.
 */
export const dryRunOption = {
  dry_run: z.boolean().optional().openapi({
    description:
      "Validate and match every record as a real run would and write the same log entries, summary and status, but change nothing and fire no webhook; the job's `dry_run` field (`fields=dry_run`) is true. A record that depends on what an earlier chunk of the payload would have written (say a new product matched again by `internal_id` further on) is judged as if that write had not happened. Default false.",
  }),
};

/** Whether the stored options of a job (or a bulk body's `options`) ask for a dry run. */
export const isDryRun = (options: unknown) =>
  typeof options === "object" && options !== null && (options as { dry_run?: unknown }).dry_run === true;

const MARKER = "dry_run_rollback";
/** Fails whenever it runs, naming itself in SQLite's error text: the last statement of a rehearsal. */
const rollback = sql.raw(`SELECT json_extract('{}', '$${MARKER}')`);

/**
 * Runs a dry run's effect statements in one D1 batch (one transaction) that a final statement fails
 * on purpose, so nothing commits. Any other error (a UNIQUE violation, say) is the one a real run's
 * batch would have raised, and is thrown as such: the caller treats it exactly as in a real run.
 */
export async function rehearse(d1: D1Database, statements: SQL[]): Promise<void> {
  if (statements.length === 0) return;
  try {
    await rawBatch(d1, [...statements, rollback]);
  } catch (err) {
    if (describeError(err).includes(MARKER)) return;
    throw err;
  }
  throw new Error("a dry run's rollback statement did not fail: its effects may have committed");
}
