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
import { JsonLexer, QUOTE } from "./json-lexer.ts";

export const JSON_MAX_DEPTH = 64;

export interface JsonProblem {
  /** Dotted path with numeric indices (`variants.0.x`), "" for the body itself. */
  path: string;
  message: string;
}

type JsonKind = "object" | "array" | "string" | "number" | "literal";

interface TopLevelMember {
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

class Stop {
  readonly problem: JsonProblem;
  constructor(problem: JsonProblem) {
    this.problem = problem;
  }
}

const utf8 = new TextDecoder();

class Scanner extends JsonLexer {
  private depth = 0;
  /** Per open container: key byte range (objects) or -1 and the element index (arrays). */
  private readonly keyStart: Int32Array;
  private readonly keyEnd: Int32Array;
  private readonly index: Int32Array;
  readonly members: TopLevelMember[] = [];
  private readonly maxDepth: number;
  private readonly elementsOf: ScanOptions["elementsOf"];

  constructor(bytes: Uint8Array, maxDepth: number, elementsOf: ScanOptions["elementsOf"]) {
    super(bytes);
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

  protected fail(message: string, extraKey?: [number, number]): never {
    throw new Stop({ path: this.path(extraKey), message });
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

  /** Steps into the object or array at `pos`; true when `close` follows at once: it is empty, and left. */
  private open(close: number): boolean {
    if (this.depth >= this.maxDepth) {
      this.fail(`must not be nested deeper than ${this.maxDepth} levels of objects and arrays`);
    }
    this.depth++;
    this.keyStart[this.depth] = -1;
    this.index[this.depth] = 0;
    this.pos++;
    this.ws();
    if (this.bytes[this.pos] !== close) return false;
    this.pos++;
    this.depth--;
    return true;
  }

  private object(top: boolean) {
    if (this.open(0x7d)) return;
    const b = this.bytes;
    const d = this.depth;
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
    sink?.reset();
    if (this.open(0x5d)) return;
    const d = this.depth;
    for (let i = 0; ; i++) {
      this.index[d] = i;
      const start = this.pos;
      const kind = this.value();
      sink?.element(start, this.pos, kind === "object");
      if (!this.more(0x5d)) return;
    }
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
