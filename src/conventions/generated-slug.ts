import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { countTrip } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { slugCandidates } from "./slug.ts";

/**
 * The first free slug among `base`, `base-2`, `base-3`, … for each requested base. The UNIQUE index
 * stays the arbiter: a writer that loses a race retries with a fresh look.
 */
export async function freeSlugs(
  c: Context<AppEnv>,
  column: SQLiteColumn,
  bases: string[],
  scope?: SQL,
): Promise<string[]> {
  if (bases.length === 0) return [];
  countTrip(c);
  const patterns = bases.map((b) => `${b}-[0-9]*`);
  const table = (column as unknown as { table: SQLiteTable }).table;
  const rows: { slug: unknown }[] = await c
    .get("db")
    .select({ slug: column })
    .from(table)
    .where(
      sql`(${column} IN (SELECT value FROM json_each(${JSON.stringify(bases)})) OR EXISTS (SELECT 1 FROM json_each(${JSON.stringify(patterns)}) p WHERE ${column} GLOB p.value))${scope ? sql` AND ${scope}` : sql``}`,
    );
  const taken = new Set(rows.map((r) => r.slug as string));
  const chosen = new Set<string>();
  return bases.map((base) => {
    for (const candidate of slugCandidates(base, taken.size + chosen.size + 2)) {
      if (!taken.has(candidate) && !chosen.has(candidate)) {
        chosen.add(candidate);
        return candidate;
      }
    }
    throw new Error("unreachable: candidates exceed taken slugs");
  });
}
