/**
 * The part of `node:zlib` the service uses (the export file's gzip stream, src/async/exports/).
 * The Worker runs with `nodejs_compat` (wrangler.toml), where workerd provides it natively;
 * src/ compiles without Node's own types.
 */
declare module "node:zlib" {
  export const constants: { readonly Z_SYNC_FLUSH: number };
  export function crc32(data: Uint8Array, value?: number): number;
  export function deflateRawSync(
    data: Uint8Array,
    options: { level: number; finishFlush: number },
  ): Uint8Array;
}
