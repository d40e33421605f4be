import { secretKeyBytes, toBase64 } from "./secret.ts";

/**
 * The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed
 * with the decoded secret. `timestamp` is the `webhook-timestamp` header value (Unix seconds).
 */
export async function signPayload(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    secretKeyBytes(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signed = new TextEncoder().encode(`${messageId}.${timestamp}.${body}`);
  const mac = await crypto.subtle.sign("HMAC", key, signed);
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
