import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { batch, countTrip } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema/index.ts";
import type { AppEnv } from "../env.ts";
import { describeError } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { isoSeconds } from "../lib/time.ts";
import { ApiError, type ProblemDetailItem } from "./problem.ts";

const IDEMPOTENCY_HEADER = "idempotency-key";
const IDEMPOTENCY_KEY_MAX = 255;
/** How long a stored answer replays, counted from when it was stored. */
const TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long an in-flight claim holds its key. A request that dies mid-flight (isolate killed,
 * deploy, crash) leaves its claim behind; once the lease has run out a retry takes the key over and
 * does the work. 60 s is well above the slowest synchronous write: an image download is cut off at
 * 5 s and D1 stops a query or batch at 30 s, and a write does one download and a few short batches.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** The same ISO form as the `timestamp` columns (whole seconds, `Z`), so text order is time order. */

/**
 * The 400 item for a malformed `Idempotency-Key` header, or null when it is absent or fine.
 * Exported so request validation can list it together with the other problems of the request.
 */
export function idempotencyKeyIssue(value: string | undefined): ProblemDetailItem | null {
  if (value === undefined) return null;
  if (value.length === 0)
    return { location: "header", path: IDEMPOTENCY_HEADER, message: "must not be empty" };
  if (value.length > IDEMPOTENCY_KEY_MAX) {
    return {
      location: "header",
      path: IDEMPOTENCY_HEADER,
      message: `must be at most ${IDEMPOTENCY_KEY_MAX} characters`,
    };
  }
  return null;
}

/**
 * Runs a POST handler under the Idempotency-Key rules (README "Conventions"): the key is claimed
 * with one atomic upsert (a live row is never overwritten; an expired one is replaced in the same
 * statement), the work runs once, a 2xx answer is stored for replay and anything else releases the
 * claim so a corrected retry can use the same key.
 *
 * `expires_at` is the lease while the claim is in flight and the 24 h retention once the answer is
 * stored, so the same upsert takes over a claim whose request died. The claim's own `expires_at`
 * identifies it: a request that outlived its lease cannot store into or release a claim taken over
 * by a retry.
 */
export async function runIdempotent(c: Context<AppEnv>, work: () => Promise<Response>): Promise<Response> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return work();
  const issue = idempotencyKeyIssue(key);
  if (issue) throw new ApiError("invalid_parameter", `${issue.path}: ${issue.message}`, [issue]);
  const apiKeyId = c.get("apiKey")?.id;
  // Keys are scoped to the API key; a route without authentication has no scope to keep them in.
  if (apiKeyId === undefined) return work();

  const fingerprint = await fingerprintOf(c);
  const outcome = await claim(c, apiKeyId, key, fingerprint);
  if ("existing" in outcome) return answerExisting(outcome.existing, fingerprint);

  const owned = and(
    eq(idempotencyKeys.apiKeyId, apiKeyId),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.fingerprint, fingerprint),
    eq(idempotencyKeys.state, "in_flight"),
    eq(idempotencyKeys.expiresAt, outcome.leaseExpiresAt),
  );
  let response: Response;
  try {
    response = await work();
  } catch (err) {
    await release(c, owned);
    throw err;
  }
  if (response.status < 200 || response.status >= 300) {
    await release(c, owned);
    return response;
  }

  const text = await response.clone().text();
  const location = response.headers.get("location");
  try {
    countTrip(c);
    await c
      .get("db")
      .update(idempotencyKeys)
      .set({
        state: "done",
        responseStatus: response.status,
        responseBody: withoutSecret(text),
        responseLocation: location,
        expiresAt: isoSeconds(Date.now() + TTL_MS),
      })
      .where(owned);
  } catch (err) {
    // The work is committed: answer it, and release the claim rather than leave it in flight (a
    // retry then runs again, as without a key). If the release fails too, the lease runs out.
    logFailure(c, "store", err);
    await release(c, owned);
  }
  return response;
}

type Row = typeof idempotencyKeys.$inferSelect;

/**
 * One round trip, one transaction: the upsert inserts a new claim or replaces an expired row (a
 * stored answer past its 24 h, or an in-flight claim past its lease) and returns it; otherwise it
 * changes nothing and the select reads the live row that blocked it. Returns the claim's lease when
 * this request owns it. A row released between two attempts is retried.
 */
async function claim(
  c: Context<AppEnv>,
  apiKeyId: number,
  key: string,
  fingerprint: string,
): Promise<{ leaseExpiresAt: string } | { existing: Row }> {
  const db = c.get("db");
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const claimRow = {
      fingerprint,
      state: "in_flight" as const,
      responseStatus: null,
      responseBody: null,
      responseLocation: null,
      createdAt: isoSeconds(now),
      expiresAt: isoSeconds(now + IDEMPOTENCY_LEASE_MS),
    };
    const [claimed, current] = await batch(c, [
      db
        .insert(idempotencyKeys)
        .values({ apiKeyId, key, ...claimRow })
        .onConflictDoUpdate({
          target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
          set: claimRow,
          setWhere: sql`${idempotencyKeys.expiresAt} <= ${isoSeconds(now)}`,
        })
        .returning({ key: idempotencyKeys.key }),
      db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key))),
    ]);
    if (claimed.length > 0) return { leaseExpiresAt: claimRow.expiresAt };
    const row = current[0];
    if (row) return { existing: row };
  }
  throw inFlight();
}

const inFlight = () =>
  new ApiError("conflict", "A request with this Idempotency-Key is still being processed", [], {
    "Retry-After": "1",
  });

function answerExisting(row: Row, fingerprint: string): Response {
  if (row.fingerprint !== fingerprint) {
    throw new ApiError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request (method, path or body)",
      [{ location: "header", path: IDEMPOTENCY_HEADER, message: "was used with a different request" }],
    );
  }
  if (row.state !== "done" || row.responseStatus === null) throw inFlight();
  const headers = new Headers({ "Content-Type": "application/json", "Idempotency-Replayed": "true" });
  if (row.responseLocation) headers.set("Location", row.responseLocation);
  return new Response(row.responseBody, { status: row.responseStatus, headers });
}

/** Errors are not stored: dropping the claim lets a corrected retry run with the same key. */
async function release(c: Context<AppEnv>, owned: ReturnType<typeof and>) {
  try {
    countTrip(c);
    await c.get("db").delete(idempotencyKeys).where(owned);
  } catch (err) {
    logFailure(c, "release", err);
  }
}

/** Method + path + SHA-256 of the raw body bytes. */
async function fingerprintOf(c: Context<AppEnv>) {
  const body = c.get("rawBody") ?? new Uint8Array();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${c.req.method} ${c.req.path} ${hex}`;
}

/** A stored answer never holds a webhook signing secret (it is shown once, in the live answer). */
function withoutSecret(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json) || !("secret" in json)) return text;
  const { secret: _secret, ...rest } = json as Record<string, unknown>;
  return JSON.stringify(rest);
}

function logFailure(c: Context<AppEnv>, step: string, err: unknown) {
  log("error", "idempotency.failed", { request_id: c.get("requestId"), step, error: describeError(err) });
}

/** Deletes up to `limit` expired keys (the hourly cron calls it until it returns less than `limit`). */
export async function purgeExpiredIdempotencyKeys(db: D1Database, nowIso: string, limit = 500) {
  const result = await db
    .prepare(
      `DELETE FROM idempotency_keys WHERE rowid IN
         (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)`,
    )
    .bind(nowIso, limit)
    .run();
  return result.meta.changes ?? 0;
}
