import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * The export file is stored as one gzip member (RFC 1952) written across queue messages: a deflate
 * stream cannot be carried from one invocation to the next, but it needs not be. Each page's text
 * is compressed on its own and flushed to a byte boundary without ending the stream (a sync flush),
 * so the pieces of all pages, in order, are one deflate stream (no piece refers back to another's
 * bytes); the last message ends it. Readers see an ordinary single-member gzip file. The CRC-32
 * and length the trailer needs are continued from message to message (`job_exports`).
 */

/** A gzip header without name or time: deflate, unknown OS. */
export const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The bytes `gzipEnd` adds: an empty final block, the CRC-32 and the length. */
export const GZIP_END_BYTES = 10;

/** Level 3: on export text as fast as level 1 and about 7 % smaller (bench/RESULTS.md, export stage). */
const LEVEL = 3;

const encoder = new TextEncoder();

/** The text compressed so far: its CRC-32 and its length in bytes. */
export interface TextSum {
  crc: number;
  bytes: number;
}

/** `text` as deflate blocks that continue the file's stream, counted into `sum`. */
export function deflateText(text: string, sum: TextSum): Uint8Array {
  const bytes = encoder.encode(text);
  if (bytes.length === 0) return bytes;
  sum.crc = crc32(bytes, sum.crc);
  sum.bytes += bytes.length;
  return deflateRawSync(bytes, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
}

/** The end of the stream (an empty final block) and the gzip trailer of the text `sum` counted. */
export function gzipEnd(sum: TextSum): Uint8Array {
  const end = new Uint8Array(GZIP_END_BYTES);
  end.set([0x03, 0x00]);
  const view = new DataView(end.buffer);
  view.setUint32(2, sum.crc >>> 0, true);
  view.setUint32(6, sum.bytes % 2 ** 32, true);
  return end;
}
