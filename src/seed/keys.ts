import { sha256Hex } from "../lib/sha256.ts";
import { seedTime } from "./clock.ts";
import { insertRows, json, type SeedStatement } from "./sql.ts";

/**
 * The two well-known keys of local development (README "Quick start"). They exist only in databases the
 * local seed loads, which refuses remote databases.
 */
export const LOCAL_KEYS = [
  {
    id: 1,
    name: "local development (all scopes)",
    secret: "sfk_local_development_key",
    scopes: ["read", "write", "admin"],
  },
  { id: 2, name: "local read-only", secret: "sfk_local_readonly_key", scopes: ["read"] },
] as const;

/** The part of a secret shown in listings, enough to recognise it and useless to authenticate: `sfk_` and six more characters. */
export const displayPrefix = (secret: string) => secret.slice(0, 10);

export async function localKeyStatements(): Promise<SeedStatement[]> {
  const rows = [];
  for (const key of LOCAL_KEYS) {
    rows.push({
      id: key.id,
      name: key.name,
      prefix: displayPrefix(key.secret),
      key_hash: await sha256Hex(key.secret),
      scopes: json(key.scopes),
      created_at: seedTime(0),
      last_used_at: null,
      revoked_at: null,
    });
  }
  return insertRows("api_keys", rows);
}
