import { joinBytes } from "../lib/bytes.ts";

/**
 * Reads a byte stream to its end, or stops (cancelling the stream) as soon as it passes `maxBytes`
 * and answers null: the request body guard and outbound downloads never buffer past their cap.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return joinBytes(chunks, size);
}
