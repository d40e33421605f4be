import { utf8Length } from "./bulk-sql.ts";
import type { ChunkRecord } from "./types.ts";

/** At most 200 records and 1 MiB of JSON (UTF-8 bytes) per chunk: a chunk's batch stays far inside D1's and the Worker's limits. */
export const CHUNK_MAX_RECORDS = 200;
export const CHUNK_MAX_BYTES = 1024 * 1024;

export function splitIntoChunks(
  records: unknown[],
  maxRecords = CHUNK_MAX_RECORDS,
  maxBytes = CHUNK_MAX_BYTES,
): ChunkRecord[][] {
  const chunks: ChunkRecord[][] = [];
  let current: ChunkRecord[] = [];
  let bytes = 0;
  records.forEach((data, index) => {
    const size = utf8Length(JSON.stringify(data));
    if (current.length > 0 && (current.length >= maxRecords || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push({ index, data });
    bytes += size;
  });
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export const chunkKey = (jobId: string, chunk: number) =>
  `jobs/${jobId}/chunk-${String(chunk).padStart(5, "0")}.json`;
export const jobPayloadPrefix = (jobId: string) => `jobs/${jobId}/`;
