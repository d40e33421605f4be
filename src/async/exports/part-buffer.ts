import { joinBytes } from "../../lib/bytes.ts";

const encoder = new TextEncoder();

/**
 * The bytes of one part of the file and of what follows it. Text is encoded straight into the
 * part (`encodeInto`, no intermediate copy) until the part is full; what does not fit goes to the
 * overflow, the start of the next part. A part is cut at exactly `partBytes`, whatever the
 * character or line it splits.
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

  write(text: string) {
    if (text.length === 0) return;
    if (this.overflowBytes === 0 && this.used < this.partBytes) {
      const { read, written } = encoder.encodeInto(text, this.part.subarray(this.used));
      this.used += written;
      if (read === text.length) return;
      text = text.slice(read);
    }
    this.pushOverflow(encoder.encode(text));
  }

  push(bytes: Uint8Array) {
    if (bytes.length === 0) return;
    const fits = Math.min(bytes.length, this.overflowBytes === 0 ? this.partBytes - this.used : 0);
    this.part.set(bytes.subarray(0, fits), this.used);
    this.used += fits;
    if (fits < bytes.length) this.pushOverflow(bytes.subarray(fits));
  }

  private pushOverflow(bytes: Uint8Array) {
    this.overflow.push(bytes);
    this.overflowBytes += bytes.length;
  }

  /**
   * The part (all of it when `whole`: the last part, at most `partBytes`) and the bytes after it.
   * A multi-byte character that did not fit whole left the part a few bytes short: they are
   * filled from the overflow first.
   */
  cut(whole = false): [Uint8Array, Uint8Array] {
    const rest = joinBytes(this.overflow, this.overflowBytes);
    const fill = Math.min(this.partBytes - this.used, rest.length);
    this.part.set(rest.subarray(0, fill), this.used);
    const length = whole ? this.used + fill : this.partBytes;
    return [this.part.subarray(0, Math.min(length, this.used + fill)), rest.subarray(fill)];
  }
}
