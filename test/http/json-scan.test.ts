import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanJson } from "../../src/http/json-scan.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE.test(s);

/** Whether `text` holds a lone surrogate escape (the scanner refuses what JSON.parse accepts there). */
const loneSurrogate = (text: string) => {
  try {
    const check = (v: unknown): boolean =>
      typeof v === "string"
        ? !wellFormed(v)
        : Array.isArray(v)
          ? v.some(check)
          : v !== null && typeof v === "object"
            ? Object.entries(v).some(([k, x]) => !wellFormed(k) || check(x))
            : false;
    return check(JSON.parse(text));
  } catch {
    return false;
  }
};

describe("the JSON scanner agrees with JSON.parse", () => {
  it("accepts every valid JSON text (below the depth limit, without lone surrogates)", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: "small" }), (text) => {
        expect(scanJson(bytes(text)).ok).toBe(!loneSurrogate(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses exactly what JSON.parse refuses, on texts with one character changed, dropped or added", () => {
    const mutated = fc
      .tuple(
        fc.json({ depthSize: "small" }),
        fc.nat(),
        fc.constantFrom("change", "drop", "add"),
        fc.constantFrom(...'{}[],:"\\01-.eEtfn u\u0001 '),
      )
      .map(([text, at, how, ch]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        if (how === "drop") return text.slice(0, i) + text.slice(i + 1);
        if (how === "add") return text.slice(0, i) + ch + text.slice(i);
        return text.slice(0, i) + ch + text.slice(i + 1);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        if (loneSurrogate(text)) return;
        expect(scanJson(bytes(text)).ok, text).toBe(parses(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ["leading zero", "01"],
    ["trailing comma", "[1,]"],
    ["bare minus", "-"],
    ["fraction without digits", "1."],
    ["exponent without digits", "1e+"],
    ["single quotes", "'a'"],
    ["control character in a string", '"a\tb"'],
    ["bad escape", '"\\x41"'],
    ["short unicode escape", '"\\u12"'],
    ["two values", "1 2"],
    ["unclosed object", '{"a":1'],
  ])("refuses %s", (_name, text) => {
    expect(parses(text)).toBe(false);
    expect(scanJson(bytes(text)).ok).toBe(false);
  });
});
