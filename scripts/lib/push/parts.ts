import { createHash } from "node:crypto";
import type { InputRecord } from "./read-records.ts";

/** A request body's worth of consecutive input records. */
export interface Part {
  /** From 1, in file order. */
  number: number;
  body: string;
  /** Derived from the operation, the options and the body bytes: a re-run sends the same key. */
  idempotencyKey: string;
  records: Record<string, unknown>[];
  /** Input position of each record, in payload order (the job's `record.index` indexes this). */
  positions: number[];
}

export type Failure = { position: number; code: string; message: string };

/**
 * Groups the records into request bodies of at most `maxBytes` UTF-8 bytes, wrapper and options
 * included, splitting only between records. Records that cannot be sent (unparseable, or alone
 * larger than a body) go to `onUnsendable` instead.
 */
export async function* splitIntoParts(
  input: AsyncIterable<InputRecord>,
  target: { path: string; itemsKey: string; options: Record<string, unknown> },
  maxBytes: number,
  onUnsendable: (failure: Failure) => void,
): AsyncGenerator<Part> {
  const head = `{${JSON.stringify(target.itemsKey)}:[`;
  const tail = `],"options":${JSON.stringify(target.options)}}`;
  const wrapperBytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  let texts: string[] = [];
  let records: Record<string, unknown>[] = [];
  let positions: number[] = [];
  let bytes = wrapperBytes;
  let number = 0;
  const flush = (): Part => {
    const body = `${head}${texts.join(",")}${tail}`;
    const idempotencyKey = createHash("sha256").update(`${target.path}\n`).update(body).digest("hex");
    const part = { number: ++number, body, idempotencyKey, records, positions };
    texts = [];
    records = [];
    positions = [];
    bytes = wrapperBytes;
    return part;
  };
  for await (const item of input) {
    if ("error" in item) {
      onUnsendable({ position: item.position, ...item.error });
      continue;
    }
    const text = JSON.stringify(item.record);
    const size = Buffer.byteLength(text) + (texts.length > 0 ? 1 : 0);
    if (wrapperBytes + Buffer.byteLength(text) > maxBytes) {
      onUnsendable({
        position: item.position,
        code: "RECORD_TOO_LARGE",
        message: `the record alone makes a body over ${maxBytes} bytes`,
      });
      continue;
    }
    if (bytes + size > maxBytes) yield flush();
    bytes += texts.length > 0 ? Buffer.byteLength(text) + 1 : Buffer.byteLength(text);
    texts.push(text);
    records.push(item.record);
    positions.push(item.position);
  }
  if (texts.length > 0) yield flush();
}
