import { joinBytes } from "../../lib/bytes.ts";

/**
 * The bytes of one part of the file and of what follows it. Bytes are copied into the part until
 * it is full; what does not fit goes to the overflow, the start of the next part. A part is cut
 * at exactly `partBytes`, wherever that falls in the compressed stream.
 */
export class PartBuffer {
  private readonly part: Uint8Array;
  private used = 0;
  private overflow: Uint8Array[] = [];
  private overflowBytes = 0;

  constructor(private readonly partBytes: number) {
    this.part = new Uint8Array(partBytes);
  }

  get size() {
    return this.used + this.overflowBytes;
  }

  push(bytes: Uint8Array) {
    if (bytes.length === 0) return;
    const fits = Math.min(bytes.length, this.partBytes - this.used);
    this.part.set(bytes.subarray(0, fits), this.used);
    this.used += fits;
    if (fits < bytes.length) {
      this.overflow.push(bytes.subarray(fits));
      this.overflowBytes += bytes.length - fits;
    }
  }

  /** The part (all of it when `whole`: the last part, at most `partBytes`) and the bytes after it. */
  cut(whole = false): [Uint8Array, Uint8Array] {
    const rest = joinBytes(this.overflow, this.overflowBytes);
    return [this.part.subarray(0, whole ? this.used : this.partBytes), rest];
  }
}
