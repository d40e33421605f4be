import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { countTrip } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { slugCandidateStems, slugCandidates } from "./slug.ts";

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
  const stems = [...new Set(bases.flatMap(slugCandidateStems))];
  const table = (column as unknown as { table: SQLiteTable }).table;
  const rows: { slug: unknown }[] = await c
    .get("db")
    .select({ slug: column })
    .from(table)
    .where(
      // `<stem>-<digits>` by range and character set, not GLOB: D1 refuses patterns over 50 bytes.
      sql`(${column} IN (SELECT value FROM json_each(${JSON.stringify(bases)})) OR EXISTS (SELECT 1 FROM json_each(${JSON.stringify(stems)}) p WHERE ${column} > p.value || '-' AND ${column} < p.value || '.' AND ltrim(substr(${column}, length(p.value) + 2), '0123456789') = ''))${scope ? sql` AND ${scope}` : sql``}`,
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
