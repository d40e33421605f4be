import { describe, expect, it } from "vitest";
import { PartBuffer } from "../../src/async/exports/part-buffer.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("a part buffer", () => {
  it("cuts a part at exactly its size and keeps the rest in order", () => {
    const buffer = new PartBuffer(8);
    buffer.push(bytes(1, 2));
    buffer.push(bytes(3, 4, 5, 6, 7, 8, 9));
    buffer.push(bytes(10, 11));
    expect(buffer.size).toBe(11);
    const [part, rest] = buffer.cut();
    expect([...part]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...rest]).toEqual([9, 10, 11]);
  });

  it("gives the whole of a last part shorter than the size", () => {
    const buffer = new PartBuffer(8);
    buffer.push(bytes(1, 2, 3));
    const [part, rest] = buffer.cut(true);
    expect([...part]).toEqual([1, 2, 3]);
    expect(rest.length).toBe(0);
  });
});
