/**
 * One linear pass over a JSON body's bytes, before anything recursive or allocating touches it:
 * checks the grammar (RFC 8259), refuses nesting deeper than `maxDepth` and lone UTF-16 surrogate
 * escapes (`"\ud800"`, which JSON.parse would turn into a string SQLite stores as invalid UTF-8),
 * and reports the problem with its path. The recursion below is bounded by `maxDepth`.
 *
 * It also lists the top-level members of an object body (key and byte range of the value), and can
 * hand the elements of one top-level array to a sink (byte ranges), so that a 10 MB bulk body is
 * never materialized as millions of JS objects: its records are split into chunks by byte range.
 */

export const JSON_MAX_DEPTH = 64;

export interface JsonProblem {
  /** Dotted path with numeric indices (`variants.0.x`), "" for the body itself. */
  path: string;
  message: string;
}

export type JsonKind = "object" | "array" | "string" | "number" | "literal";

export interface TopLevelMember {
  key: string;
  start: number;
  end: number;
  kind: JsonKind;
}

/** Receives the elements of the array value of one top-level key, in order. */
export interface ElementSink {
  /** A new occurrence of the key starts (JSON.parse keeps the last duplicate key; so do sinks). */
  reset(): void;
  element(start: number, end: number, isObject: boolean): void;
}

export interface ScanOptions {
  maxDepth?: number;
  /** The top-level key whose array elements go to `sink` instead of being described one by one. */
  elementsOf?: { key: string; sink: ElementSink };
}

export type ScanResult =
  | { ok: true; kind: JsonKind; members: TopLevelMember[] }
  | { ok: false; problem: JsonProblem };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class Stop {
  readonly problem: JsonProblem;
  constructor(problem: JsonProblem) {
    this.problem = problem;
  }
}

const utf8 = new TextDecoder();

class Scanner {
  private pos = 0;
  private depth = 0;
  private readingKey = false;
  /** Per open container: key byte range (objects) or -1 and the element index (arrays). */
  private readonly keyStart: Int32Array;
  private readonly keyEnd: Int32Array;
  private readonly index: Int32Array;
  readonly members: TopLevelMember[] = [];
  private readonly bytes: Uint8Array;
  private readonly maxDepth: number;
  private readonly elementsOf: ScanOptions["elementsOf"];

  constructor(bytes: Uint8Array, maxDepth: number, elementsOf: ScanOptions["elementsOf"]) {
    this.bytes = bytes;
    this.maxDepth = maxDepth;
    this.elementsOf = elementsOf;
    this.keyStart = new Int32Array(maxDepth + 2).fill(-1);
    this.keyEnd = new Int32Array(maxDepth + 2);
    this.index = new Int32Array(maxDepth + 2);
  }

  run(): JsonKind {
    const b = this.bytes;
    // A UTF-8 byte order mark is allowed before the value (TextDecoder drops it too).
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.pos = 3;
    this.ws();
    if (this.pos >= b.length) this.fail("must be valid JSON (the body is empty)");
    const kind = this.value(true);
    this.ws();
    if (this.pos < b.length) this.fail(`must be valid JSON (unexpected data at byte ${this.pos})`);
    return kind;
  }

  private path(extraKey?: [number, number]): string {
    const parts: string[] = [];
    // While a key is read, its own level holds the previous key: the key itself ends the path.
    const levels = extraKey ? this.depth - 1 : this.depth;
    for (let d = 1; d <= levels; d++) {
      const start = this.keyStart[d] as number;
      parts.push(start >= 0 ? this.keyText(start, this.keyEnd[d] as number) : String(this.index[d]));
    }
    if (extraKey) parts.push(this.keyText(extraKey[0], extraKey[1]));
    return parts.join(".");
  }

  /** A key's text for a path (escapes resolved; a lone surrogate shows as U+FFFD). */
  private keyText(start: number, end: number): string {
    const raw = utf8.decode(this.bytes.subarray(start + 1, end - 1));
    if (!raw.includes("\\")) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  }

  private fail(message: string, extraKey?: [number, number]): never {
    throw new Stop({ path: this.path(extraKey), message });
  }

  private ws() {
    const b = this.bytes;
    let p = this.pos;
    for (;;) {
      const c = b[p];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.pos = p;
  }

  private unexpected(): never {
    const c = this.bytes[this.pos];
    if (c === undefined) this.fail("must be valid JSON (unexpected end of the body)");
    const shown = c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`;
    this.fail(`must be valid JSON (unexpected ${shown} at byte ${this.pos})`);
  }

  private value(top = false): JsonKind {
    switch (this.bytes[this.pos]) {
      case 0x7b:
        this.object(top);
        return "object";
      case 0x5b:
        this.array(null);
        return "array";
      case QUOTE:
        this.string();
        return "string";
      case 0x74:
        this.literal("true");
        return "literal";
      case 0x66:
        this.literal("false");
        return "literal";
      case 0x6e:
        this.literal("null");
        return "literal";
      default:
        this.number();
        return "number";
    }
  }

  private enter() {
    if (this.depth >= this.maxDepth) {
      this.fail(`must not be nested deeper than ${this.maxDepth} levels of objects and arrays`);
    }
    this.depth++;
    this.keyStart[this.depth] = -1;
    this.index[this.depth] = 0;
  }

  private object(top: boolean) {
    this.enter();
    const b = this.bytes;
    const d = this.depth;
    this.pos++;
    this.ws();
    if (b[this.pos] === 0x7d) {
      this.pos++;
      this.depth--;
      return;
    }
    for (;;) {
      if (b[this.pos] !== QUOTE) this.unexpected();
      const keyStart = this.pos;
      this.readingKey = true;
      this.string();
      this.readingKey = false;
      this.keyStart[d] = keyStart;
      this.keyEnd[d] = this.pos;
      this.ws();
      if (b[this.pos] !== 0x3a) this.unexpected();
      this.pos++;
      this.ws();
      const valueStart = this.pos;
      if (top) {
        const key = this.keyText(keyStart, this.keyEnd[d] as number);
        const sink = this.elementsOf?.key === key && b[this.pos] === 0x5b ? this.elementsOf.sink : null;
        let kind: JsonKind = "array";
        if (sink) this.array(sink);
        else kind = this.value();
        this.members.push({ key, start: valueStart, end: this.pos, kind });
      } else {
        this.value();
      }
      if (!this.more(0x7d)) return;
    }
  }

  /** After a member or element: true at a comma (another follows), false at `close` (the container ends). */
  private more(close: number): boolean {
    this.ws();
    const c = this.bytes[this.pos];
    if (c === 0x2c) {
      this.pos++;
      this.ws();
      return true;
    }
    if (c !== close) this.unexpected();
    this.pos++;
    this.depth--;
    return false;
  }

  private array(sink: ElementSink | null) {
    this.enter();
    sink?.reset();
    const b = this.bytes;
    const d = this.depth;
    this.pos++;
    this.ws();
    if (b[this.pos] === 0x5d) {
      this.pos++;
      this.depth--;
      return;
    }
    for (let i = 0; ; i++) {
      this.index[d] = i;
      const start = this.pos;
      const kind = this.value();
      sink?.element(start, this.pos, kind === "object");
      if (!this.more(0x5d)) return;
    }
  }

  private string() {
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

  private literal(word: "true" | "false" | "null") {
    const b = this.bytes;
    for (let i = 0; i < word.length; i++) {
      if (b[this.pos + i] !== word.charCodeAt(i)) {
        this.pos += i;
        this.unexpected();
      }
    }
    this.pos += word.length;
  }

  private number() {
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

/** Scans a JSON body (see the module comment). Work is linear in the body's size. */
export function scanJson(bytes: Uint8Array, options: ScanOptions = {}): ScanResult {
  const scanner = new Scanner(bytes, options.maxDepth ?? JSON_MAX_DEPTH, options.elementsOf);
  try {
    const kind = scanner.run();
    return { ok: true, kind, members: scanner.members };
  } catch (err) {
    if (err instanceof Stop) return { ok: false, problem: err.problem };
    throw err;
  }
}
