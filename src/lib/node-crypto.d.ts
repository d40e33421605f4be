/**
 * The part of `node:crypto` the service uses. The Worker runs with `nodejs_compat` (wrangler.toml),
 * where workerd provides it natively; src/ compiles without Node's own types.
 */
declare module "node:crypto" {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(): Uint8Array;
  }
  export function createHash(algorithm: "sha256"): Hash;
}
