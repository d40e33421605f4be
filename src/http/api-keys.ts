import type { Scope } from "./route-table.ts";

export const KEY_PREFIX = "sfk_";
export const SCOPES = ["read", "write", "admin"] as const satisfies readonly Scope[];

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new random secret: `sfk_` + 32 random bytes in base64url. */
export function generateKeySecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return KEY_PREFIX + btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The part of a secret shown in listings, enough to recognise it and useless to authenticate. */
export const displayPrefix = (secret: string) => secret.slice(0, KEY_PREFIX.length + 6);
