import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * The export file is stored as one gzip member (RFC 1952) written across queue messages: a deflate
 * stream cannot be carried from one invocation to the next, but it needs not be. The text is
 * compressed a chunk at a time (at most 1 MiB, and at least each page's end), each on its own and
 * flushed to a byte boundary without ending the stream (a sync flush), so the pieces, in order, are
 * one deflate stream (no piece refers back to another's bytes); the last message ends it. Readers see an ordinary single-member gzip file. The CRC-32
 * and length the trailer needs are continued from message to message (`job_exports`).
 */

/** A gzip header without name or time: deflate, unknown OS. */
export const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The bytes `gzipEnd` adds: an empty final block, the CRC-32 and the length. */
export const GZIP_END_BYTES = 10;

/** Level 3: on export text (Node, 1.7 MB pieces) no slower than level 1 and 6 % smaller; level 6 is 2.5× slower for 20 % less. */
const LEVEL = 3;

const encoder = new TextEncoder();

/** The text compressed so far: its CRC-32 and its length in bytes. */
export interface TextSum {
  crc: number;
  bytes: number;
}

/** Text is compressed this much at a time (a sync flush each): one buffer, reused. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Text compressed onto the file's stream: each string is encoded into one reused buffer (no
 * page-sized string or copy is ever made, so a page leaves no large garbage behind), which is
 * compressed and flushed each time it is full and when `take` asks for what was written.
 */
export class TextDeflater {
  private readonly chunk = new Uint8Array(CHUNK_BYTES);
  private used = 0;
  private out: Uint8Array[] = [];

  /** `sum`: the text compressed so far, continued as chunks are compressed. */
  constructor(private readonly sum: TextSum) {}

  write(text: string) {
    for (;;) {
      const { read, written } = encoder.encodeInto(text, this.chunk.subarray(this.used));
      this.used += written;
      if (read === text.length) return;
      text = text.slice(read);
      this.compress();
    }
  }

  /** The deflate blocks of the text written since the last call, ending on a byte boundary. */
  take(): Uint8Array[] {
    this.compress();
    const out = this.out;
    this.out = [];
    return out;
  }

  private compress() {
    if (this.used === 0) return;
    const bytes = this.chunk.subarray(0, this.used);
    this.sum.crc = crc32(bytes, this.sum.crc);
    this.sum.bytes += bytes.length;
    this.out.push(deflateRawSync(bytes, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH }));
    this.used = 0;
  }
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
