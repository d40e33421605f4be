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

/** Hex SHA-256, as `sha256Hex` in src/http/api-keys.ts (which needs Workers types, so not imported here). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** As `displayPrefix` in src/http/api-keys.ts: `sfk_` and six more characters. */
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
