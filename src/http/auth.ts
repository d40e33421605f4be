import type { Context, MiddlewareHandler } from "hono";
import { countRowsRead } from "../db/client.ts";
import type { AppEnv, AuthenticatedKey } from "../env.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { isoSeconds } from "../lib/time.ts";
import { ApiError } from "./problem.ts";
import type { Scope } from "./route-table.ts";

const CACHE_TTL_MS = 30_000;
const LAST_USED_INTERVAL_MS = 10 * 60_000;

interface CachedKey {
  key: AuthenticatedKey | null;
  revokedAt: string | null;
  lastUsedAt: number;
  expires: number;
}

/**
 * Key hash → key, per isolate, for at most 30 s: a hot isolate authenticates without a D1 query,
 * and a revocation takes effect within that TTL.
 */
const cache = new Map<string, CachedKey>();

export const clearApiKeyCache = () => cache.clear();

const unauthorized = (detail: string) =>
  new ApiError("unauthorized", detail, [{ location: "header", path: "authorization", message: detail }], {
    "WWW-Authenticate": 'Bearer realm="storefront"',
  });

/**
 * `Authorization: Bearer <key>`: the scheme name is case-insensitive (RFC 9110 §11.1, so `bearer` and
 * `BEARER` work too) and may be followed by more than one space; the key itself is matched exactly.
 */
const BEARER = /^bearer +([A-Za-z0-9_\-.~+/]+=*)$/i;

/** Checks `Authorization: Bearer <key>` and the scope the matched route declares. */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const needed = c.get("routeMeta").scope;
  if (needed === null) return next();
  const header = c.req.header("authorization");
  if (!header) throw unauthorized("Missing Authorization header");
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) throw unauthorized("Authorization must be 'Bearer <api key>'");
  const hash = await sha256Hex(match[1]);
  const entry = await lookup(c, hash);
  if (!entry.key) throw unauthorized("Unknown or revoked API key");
  if (!hasScope(entry.key.scopes, needed)) {
    throw new ApiError("forbidden", `This operation needs the '${needed}' scope`);
  }
  c.set("apiKey", entry.key);
  touchLastUsed(c, entry);
  await next();
};

const hasScope = (scopes: readonly Scope[], needed: Scope) => scopes.includes(needed);

async function lookup(c: Context<AppEnv>, hash: string): Promise<CachedKey> {
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.expires > now) return hit;
  c.get("dbStats").roundTrips++; // a cold key costs one D1 query, reported in Server-Timing
  // The lookup goes by the SHA-256 of the secret through a UNIQUE index, never by the secret, and
  // the stored hash is then compared with the computed one in constant time: no step of the check
  // takes longer the more of a guessed key is right.
  const found = await c.env.DB.prepare(
    "SELECT id, key_hash, scopes, revoked_at, last_used_at FROM api_keys WHERE key_hash = ?",
  )
    .bind(hash)
    .all<{
      id: number;
      key_hash: string;
      scopes: string;
      revoked_at: string | null;
      last_used_at: string | null;
    }>();
  countRowsRead(c, [found]);
  const row = found.results[0] ?? null;
  const valid = row !== null && constantTimeEqual(row.key_hash, hash) && row.revoked_at === null;
  const entry: CachedKey = {
    key: valid ? { id: row.id, scopes: JSON.parse(row.scopes) as Scope[] } : null,
    revokedAt: row?.revoked_at ?? null,
    lastUsedAt: row?.last_used_at ? Date.parse(row.last_used_at) : 0,
    expires: now + CACHE_TTL_MS,
  };
  cache.set(hash, entry);
  if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** Equal strings, compared in time that depends only on their length (`crypto.subtle.timingSafeEqual`). */
export function constantTimeEqual(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  // timingSafeEqual needs equal lengths; compare the left side with itself to spend the same time.
  if (left.byteLength !== right.byteLength) return !crypto.subtle.timingSafeEqual(left, left);
  return crypto.subtle.timingSafeEqual(left, right);
}

function touchLastUsed(c: Context<AppEnv>, entry: CachedKey) {
  const now = Date.now();
  if (!entry.key || now - entry.lastUsedAt < LAST_USED_INTERVAL_MS) return;
  entry.lastUsedAt = now;
  const iso = isoSeconds(now);
  try {
    c.executionCtx.waitUntil(
      c.env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(iso, entry.key.id).run(),
    );
  } catch {
    // No execution context (unit tests calling app.request directly): skip the bookkeeping.
  }
}
