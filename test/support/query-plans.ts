import { env } from "cloudflare:test";

/** SQLite's plan of a statement, one step per line (`EXPLAIN QUERY PLAN`). */
export async function planOf(sql: string, params: unknown[]): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/**
 * The steps of `plan` that read a whole table or index (`SCAN t`, `SCAN t USING INDEX i`). The
 * statement's own rows may be scanned: a `json_each` (a virtual table), and the subqueries over it
 * that the plan itself builds first (`MATERIALIZE j`, `CO-ROUTINE k`).
 */
export function tableScans(plan: readonly string[]): string[] {
  const built = new Set(plan.flatMap((step) => /^(?:MATERIALIZE|CO-ROUTINE) (\S+)/.exec(step)?.[1] ?? []));
  return plan.filter((step) => {
    const scanned = /^SCAN (\S+)/.exec(step)?.[1];
    if (scanned === undefined || scanned === "CONSTANT") return false;
    return !built.has(scanned) && !step.includes("VIRTUAL TABLE");
  });
}
