import { createHash } from "node:crypto";

/**
 * SHA-256 of a string (as UTF-8) or of bytes. Synchronous (node:crypto under `nodejs_compat`):
 * `crypto.subtle.digest` costs a promise and, in Node, a job per call, which on a small input is
 * most of the time.
 */
export const sha256 = (data: string | Uint8Array): Uint8Array => createHash("sha256").update(data).digest();

/** Lower-case hex SHA-256 of a string (as UTF-8) or of bytes: API key hashes, stored image names. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  let hex = "";
  for (const b of sha256(data)) hex += b.toString(16).padStart(2, "0");
  return hex;
}
