import { apiKeys } from "../../../src/db/schema/index.ts";
import { sha256Hex } from "../../../src/lib/sha256.ts";
import { testDb } from "../test-db.ts";

/** The api_keys row of a secret: its prefix and SHA-256 hash, never the secret itself. */
export async function apiKeyRow(name: string, secret: string, scopes: string[]) {
  return { name, prefix: secret.slice(0, 10), keyHash: await sha256Hex(secret), scopes };
}

/** Stores an API key for `secret`, named after it unless told, with every scope unless told. */
export async function createApiKey(
  secret: string,
  { name = secret, scopes = ["read", "write", "admin"] }: { name?: string; scopes?: string[] } = {},
) {
  await testDb()
    .insert(apiKeys)
    .values(await apiKeyRow(name, secret, scopes));
}
