import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { countTrip } from "../../db/client.ts";
import type { AppEnv } from "../../env.ts";
import { slugCandidateStems, slugCandidates } from "../../lib/slug.ts";

/** Slugs of `column` (within `scope`) that any candidate of these bases could collide with. */
async function takenSlugs(c: Context<AppEnv>, column: SQLiteColumn, bases: string[], scope?: SQL) {
  countTrip(c);
  const stems = [...new Set(bases.flatMap(slugCandidateStems))];
  const table = column.table;
  const within = scope ? sql` AND ${scope}` : sql``;
  // Each base and stem drives a search of the slug's index (a CROSS JOIN keeps that order): an
  // `OR EXISTS` over the stems was a condition per row, and every plan read the table whole.
  const rows = await c.get("db").all<{ slug: unknown }>(
    sql`SELECT ${column} AS slug FROM (SELECT DISTINCT value FROM json_each(${JSON.stringify(bases)})) AS b CROSS JOIN ${table} ON ${column} = b.value${within}
      UNION ALL
      SELECT ${column} AS slug FROM (SELECT DISTINCT value FROM json_each(${JSON.stringify(stems)})) AS p CROSS JOIN ${table} ON ${column} > p.value || '-' AND ${column} < p.value || '.' AND ltrim(substr(${column}, length(p.value) + 2), '0123456789') = ''${within}`,
  );
  return new Set(rows.map((r) => r.slug as string));
}

/** Free candidates handed to the write: concurrent writers of the same base each find one left. */
const CANDIDATES = 32;

/**
 * A generated slug for a row about to be inserted, as an SQL expression for the INSERT itself: it
 * picks, when the write runs (inside its transaction), the first of the candidates that were free
 * at lookup time and still are. Concurrent writers of the same name therefore get `-2`, `-3`, …
 * instead of colliding on the UNIQUE index. `fallback` is used only when every candidate was taken
 * in between (more than 32 concurrent writers of one name).
 */
export async function generatedSlug(
  c: Context<AppEnv>,
  column: SQLiteColumn,
  base: string,
  fallback: SQL | string,
  scope?: SQL,
): Promise<SQL> {
  const taken = await takenSlugs(c, column, [base], scope);
  const free = slugCandidates(base, taken.size + CANDIDATES)
    .filter((s) => !taken.has(s))
    .slice(0, CANDIDATES);
  const table = column.table;
  return sql`COALESCE((SELECT c.value FROM json_each(${JSON.stringify(free)}) AS c WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${column} = c.value${scope ? sql` AND ${scope}` : sql``}) ORDER BY c.key LIMIT 1), ${fallback})`;
}
