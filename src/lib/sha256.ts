/** Lower-case hex SHA-256 of a string (as UTF-8) or of bytes: API key hashes, stored image names. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  // A copy of the bytes: digest() takes only ArrayBuffer-backed views under the DOM typings the scripts use.
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
