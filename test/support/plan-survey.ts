import { env } from "cloudflare:test";
import { type Captured, planOf } from "./query-plans.ts";
import {
  demoSeedStatistics,
  type StatisticsState,
  type StatRow,
  useStatistics,
} from "./statistics-states.ts";

/*
 * What the plan tests (read, bulk and platform statements) share: a large catalog laid over the
 * demo seed's statistics, and a survey of captured statements' plans under one statistics state.
 */

/**
 * Takes the demo seed's statistics, then loads `statements` (a catalog of plan-catalog.ts) on the
 * same ids; answers those statistics, the `stale` state of `useStatistics`.
 */
export async function largeCatalogOverDemoStatistics(statements: readonly string[]): Promise<StatRow[]> {
  const stale = await demoSeedStatistics();
  await env.DB.batch(statements.map((q) => env.DB.prepare(q)));
  return stale;
}

/**
 * Puts the planner in `state`, then explains each statement: those whose plan has a step `unwanted`
 * objects to, each described by its source, SQL and plan (for the failure message), in order.
 */
export async function unwantedPlans(
  state: StatisticsState,
  stale: StatRow[],
  statements: Iterable<Captured>,
  unwanted: (statement: Captured, plan: string[]) => string[],
): Promise<string[]> {
  await useStatistics(state, stale);
  const found: string[] = [];
  for (const statement of statements) {
    const plan = await planOf(statement.sql, statement.params);
    if (unwanted(statement, plan).length > 0) {
      found.push(`${statement.source}: ${statement.sql.replace(/\s+/g, " ")}\n    ${plan.join(" | ")}`);
    }
  }
  return found;
}
