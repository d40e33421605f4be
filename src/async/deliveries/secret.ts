/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
const SECRET_PREFIX = "whsec_";

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export function generateSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The HMAC key: the base64 part of the secret, decoded. */
export function secretKeyBytes(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Uint8Array.from(atob(encoded), (ch) => ch.charCodeAt(0));
}

export { toBase64 };
