export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The tokens of JSON over a body's bytes (whitespace, strings with their escapes, literals,
 * numbers), checked in place without decoding. The structure above them (objects, arrays, paths)
 * is the scanner's (json-scan.ts), which also says how a failure is reported.
 */
export abstract class JsonLexer {
  protected pos = 0;
  /** True while the string being read is an object key (a failure's path then ends with it). */
  protected readingKey = false;
  protected readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** Stops the scan with `message` at the current path (plus the key being read, when given). */
  protected abstract fail(message: string, extraKey?: [number, number]): never;

  protected ws() {
    const b = this.bytes;
    let p = this.pos;
    for (;;) {
      const c = b[p];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.pos = p;
  }

  protected unexpected(): never {
    const c = this.bytes[this.pos];
    if (c === undefined) this.fail("must be valid JSON (unexpected end of the body)");
    const shown = c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`;
    this.fail(`must be valid JSON (unexpected ${shown} at byte ${this.pos})`);
  }

  protected string() {
    const b = this.bytes;
    const start = this.pos;
    let p = start + 1;
    for (;;) {
      const c = b[p];
      if (c === QUOTE) break;
      if (c === undefined) {
        this.pos = p;
        this.unexpected();
      }
      if (c === BACKSLASH) {
        p = this.escape(p, start);
        continue;
      }
      if (c < 0x20) {
        this.pos = p;
        this.fail(`must be valid JSON (unescaped control character in a string at byte ${p})`);
      }
      p++;
    }
    this.pos = p + 1;
  }

  /** Checks the escape at `p` (a backslash); returns the position after it. */
  private escape(p: number, stringStart: number): number {
    const b = this.bytes;
    const c = b[p + 1];
    if (c === 0x75) {
      const unit = this.hex4(p + 2);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const low = b[p + 6] === BACKSLASH && b[p + 7] === 0x75 ? this.hex4(p + 8) : -1;
        if (low >= 0xdc00 && low <= 0xdfff) return p + 12;
        this.surrogate(unit, p, stringStart);
      }
      if (unit >= 0xdc00 && unit <= 0xdfff) this.surrogate(unit, p, stringStart);
      return p + 6;
    }
    if (
      c === QUOTE ||
      c === BACKSLASH ||
      c === 0x2f ||
      c === 0x62 ||
      c === 0x66 ||
      c === 0x6e ||
      c === 0x72 ||
      c === 0x74
    ) {
      return p + 2;
    }
    this.pos = p;
    this.fail(`must be valid JSON (invalid escape in a string at byte ${p})`);
  }

  private hex4(p: number): number {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.bytes[p + i] ?? 0;
      const digit =
        c >= 0x30 && c <= 0x39
          ? c - 0x30
          : c >= 0x61 && c <= 0x66
            ? c - 0x57
            : c >= 0x41 && c <= 0x46
              ? c - 0x37
              : -1;
      if (digit < 0) {
        this.pos = p + i;
        this.fail(`must be valid JSON (invalid \\u escape at byte ${p - 2})`);
      }
      value = value * 16 + digit;
    }
    return value;
  }

  private surrogate(unit: number, p: number, stringStart: number): never {
    const message = `must not contain a lone UTF-16 surrogate (\\u${unit.toString(16)} at byte ${p}); strings must be valid Unicode`;
    this.fail(message, this.readingKey ? [stringStart, this.stringEnd(stringStart)] : undefined);
  }

  private stringEnd(start: number): number {
    const b = this.bytes;
    let p = start + 1;
    while (p < b.length && b[p] !== QUOTE) p += b[p] === BACKSLASH ? 2 : 1;
    return p + 1;
  }

  protected literal(word: "true" | "false" | "null") {
    const b = this.bytes;
    for (let i = 0; i < word.length; i++) {
      if (b[this.pos + i] !== word.charCodeAt(i)) {
        this.pos += i;
        this.unexpected();
      }
    }
    this.pos += word.length;
  }

  protected number() {
    const b = this.bytes;
    let p = this.pos;
    if (b[p] === 0x2d) p++;
    if (b[p] === 0x30) p++;
    else p = this.digits(p);
    if (b[p] === 0x2e) p = this.digits(p + 1);
    if (b[p] === 0x65 || b[p] === 0x45) {
      p++;
      if (b[p] === 0x2b || b[p] === 0x2d) p++;
      p = this.digits(p);
    }
    this.pos = p;
  }

  /** One or more digits from `p` (a method, not a closure per number: numbers are the hot path). */
  private digits(p: number): number {
    const b = this.bytes;
    let q = p;
    while ((b[q] ?? 0) >= 0x30 && (b[q] ?? 0) <= 0x39) q++;
    if (q === p) {
      this.pos = p;
      this.unexpected();
    }
    return q;
  }
}
