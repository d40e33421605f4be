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

/** One statement prepared through a recording binding: where it came from, its SQL and parameters. */
export interface Captured {
  source: string;
  sql: string;
  params: unknown[];
}

/**
 * The D1 binding (and the sessions it opens), recording the SQL and parameters of every statement
 * prepared through it under `source()`. The statements themselves are D1's own, so they batch as usual.
 */
export function recordingD1(d1: D1Database, out: Captured[], source: () => string): D1Database {
  const record = <T extends { prepare(query: string): D1PreparedStatement }>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === "prepare") {
          return (query: string) => {
            const entry: Captured = { source: source(), sql: query, params: [] };
            out.push(entry);
            const statement = t.prepare(query);
            const bind = statement.bind.bind(statement);
            statement.bind = (...params: unknown[]) => {
              entry.params = params;
              return bind(...params);
            };
            return statement;
          };
        }
        if (prop === "withSession") {
          return (constraint?: string) => record((t as unknown as D1Database).withSession(constraint));
        }
        const value = Reflect.get(t, prop, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  return record(d1);
}
