/** Bytes of the file not yet uploaded, as the pieces they were encoded in (never copied until a part is cut). */
export class PartBuffer {
  private pieces: Uint8Array[] = [];
  size = 0;

  push(bytes: Uint8Array) {
    if (bytes.length === 0) return;
    this.pieces.push(bytes);
    this.size += bytes.length;
  }

  /** The first `length` bytes as one array, and what is left after them. */
  cut(length: number): [Uint8Array, Uint8Array] {
    const all = this.concat();
    return [all.subarray(0, length), all.subarray(length)];
  }

  concat(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    this.pieces = [out];
    return out;
  }
}
