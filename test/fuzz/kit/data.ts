import { env } from "cloudflare:workers";

/** Data: the deterministic demo seed, so reads render real rows and writes have targets. */

export async function loadDemoSeed(): Promise<void> {
  const { buildSeed } = await import("../../../src/seed/index.ts");
  const statements = await buildSeed({ scale: 1 });
  await env.DB.batch([
    env.DB.prepare("DELETE FROM store_translations"),
    env.DB.prepare("DELETE FROM store"),
    ...statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)),
  ]);
}

/** A few existing ids of `table` (as path segments), the largest one included. */
export async function existingIds(table: string, n = 3): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM (SELECT id FROM "${table}" ORDER BY id LIMIT ?) UNION SELECT max(id) FROM "${table}"`,
  )
    .bind(n)
    .all<{ id: number | string | null }>();
  return results.filter((r) => r.id !== null).map((r) => String(r.id));
}
