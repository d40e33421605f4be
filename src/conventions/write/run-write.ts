import type { Context } from "hono";
import { countTrip } from "../../db/client.ts";
import { forgetGenerations } from "../../edge/generations.ts";
import type { AppEnv } from "../../env.ts";
import { ApiError, type ProblemDetailItem } from "../../http/problem.ts";
import { describeError, isUniqueViolation } from "../../lib/errors.ts";
import { getResource } from "../engine.ts";
import type { ConventionQuery } from "../query-schema.ts";
import type { AnyResource } from "../resource.ts";

/** Unique index name → the body path and message of the 409 it causes. */
export type UniqueRules = Record<string, { path: string; message: string }>;

/**
 * Runs a write (a single statement or a `db.batch`, which D1 runs as one transaction) and turns a
 * UNIQUE index violation into 409 naming the field: uniqueness is enforced by the index, never by
 * read-then-write. A write bumps the edge cache generations of what it changed in its own batch
 * (`generationBump`); once it committed, this isolate's next cached read learns them at once.
 */
export async function runWrite<T>(c: Context<AppEnv>, rules: UniqueRules, write: () => Promise<T>) {
  countTrip(c);
  try {
    const result = await write();
    forgetGenerations();
    return result;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const message = describeError(err);
    const hits = Object.entries(rules).filter(
      ([index, rule]) => message.includes(index) || message.includes(`.${rule.path.split(".").pop()}`),
    );
    // A violation no rule names is not the client's to fix here (e.g. a generated slug race).
    if (hits.length === 0) throw err;
    const items: ProblemDetailItem[] = hits.map(([, rule]) => ({
      location: "body",
      path: rule.path,
      message: rule.message,
    }));
    throw new ApiError("conflict", items.map((i) => `${i.path}: ${i.message}`).join("; "), items);
  }
}

/**
 * 201 with `Location` and the created resource rendered like a get (request `fields`/`locales`),
 * followed by the `extras` its verb answers besides.
 */
export async function created(
  c: Context<AppEnv>,
  resource: AnyResource,
  collectionPath: string,
  id: number,
  query: Pick<ConventionQuery, "fields" | "locales">,
  extras: Record<string, unknown> = {},
) {
  const body = await getResource(c, resource, id, query);
  return c.json({ ...body, ...extras }, 201, {
    Location: `${new URL(c.req.url).origin}/api/v1${collectionPath}/${id}`,
  });
}

/** 200 with the updated resource rendered like a get, followed by the `extras` its verb answers besides. */
export async function updated(
  c: Context<AppEnv>,
  resource: AnyResource,
  id: number,
  query: Pick<ConventionQuery, "fields" | "locales">,
  extras: Record<string, unknown> = {},
) {
  return c.json({ ...(await getResource(c, resource, id, query)), ...extras }, 200);
}
