import { type ElementSink, type JsonProblem, scanJson } from "./json-scan.ts";

/**
 * A top-level value of a bulk body other than its records (`options`, unknown keys) is parsed only
 * up to this size; the records array itself is never parsed here (see `RecordsOf`).
 */
const MEMBER_MAX_BYTES = 64 * 1024;

/** The top-level array of a bulk body whose elements go to a sink by byte range, unparsed. */
export interface RecordsOf {
  key: string;
  sink: ElementSink;
}

export type DecodedBody = { ok: true; value: unknown } | { ok: false; problems: JsonProblem[] };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const utf8 = new TextDecoder();

/**
 * A request body's bytes as a JSON value, in time linear in their size: valid UTF-8, then one scan
 * (grammar, depth, lone surrogates) before JSON.parse. With `records`, the body must be an object,
 * the records array stays unparsed (the value at its key is the sink, filled with byte ranges), and
 * every other member is parsed on its own, so a 10 MB array of tiny records never becomes millions
 * of JS objects.
 */
export function decodeJsonBody(bytes: Uint8Array, records?: RecordsOf): DecodedBody {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, problems: [{ path: "", message: "must be valid UTF-8" }] };
  }
  const scan = scanJson(bytes, records ? { elementsOf: records } : {});
  if (!scan.ok) return { ok: false, problems: [scan.problem] };
  if (!records) return { ok: true, value: JSON.parse(text) };
  if (scan.kind !== "object")
    return { ok: false, problems: [{ path: "", message: "must be a JSON object" }] };

  const value: Record<string, unknown> = {};
  const oversized = new Set<string>();
  for (const member of scan.members) {
    let memberValue: unknown;
    if (member.key === records.key && member.kind === "array") memberValue = records.sink;
    else if (member.end - member.start > MEMBER_MAX_BYTES) oversized.add(member.key);
    else memberValue = JSON.parse(utf8.decode(bytes.subarray(member.start, member.end)));
    if (memberValue !== undefined) oversized.delete(member.key);
    // defineProperty: a "__proto__" key is an own property, as JSON.parse makes it.
    Object.defineProperty(value, member.key, {
      value: memberValue,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (oversized.size > 0) {
    return {
      ok: false,
      problems: [...oversized].map((key) => ({
        path: key,
        message: `must be at most ${MEMBER_MAX_BYTES} bytes`,
      })),
    };
  }
  return { ok: true, value };
}
