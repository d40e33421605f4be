import { describe, expect, it } from "vitest";
import { PartBuffer } from "../../src/async/exports/part-buffer.ts";

const utf8 = new TextEncoder();
const join = (a: Uint8Array, b: Uint8Array) => new Uint8Array([...a, ...b]);

describe("a part buffer", () => {
  it("cuts a part at exactly its size, through a multi-byte character, and keeps the rest in order", () => {
    const buffer = new PartBuffer(8);
    buffer.push(utf8.encode("ab"));
    buffer.write("cdeff€g");
    buffer.write("h\n");
    const [part, rest] = buffer.cut();
    expect(part.length).toBe(8);
    expect(new TextDecoder().decode(join(part, rest))).toBe("abcdeff€gh\n");
  });

  it("gives the whole of a last part shorter than the size", () => {
    const buffer = new PartBuffer(8);
    buffer.write("é\n");
    const [part, rest] = buffer.cut(true);
    expect(new TextDecoder().decode(part)).toBe("é\n");
    expect(rest.length).toBe(0);
  });
});
