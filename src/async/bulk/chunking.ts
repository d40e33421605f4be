import type { ElementSink } from "../../http/json-scan.ts";
import { MAX_LISTED_PROBLEMS } from "../../http/problem.ts";
import type { ChunkRecord } from "./types.ts";

/** At most 200 records and 1 MiB of JSON per chunk: a chunk's batch stays far inside D1's and the Worker's limits. */
export const CHUNK_MAX_RECORDS = 200;
const CHUNK_MAX_BYTES = 1024 * 1024;
/**
 * A record larger than this is failed by its job without being parsed (INVALID_FIELD_VALUE), so a
 * chunk never costs more memory than a few MiB of JSON. The largest valid product (14 locales of
 * 65,535-character descriptions and bodies) is under 2 MiB.
 */
export const RECORD_MAX_BYTES = 2 * 1024 * 1024;

/**
 * One chunk of a job: `count` records from payload index `first`, stored at bytes
 * `offset .. offset + length` of the job's payload object (the elements and the commas between
 * them, without the enclosing brackets).
 */
export interface ChunkRange {
  first: number;
  count: number;
  offset: number;
  length: number;
}

/**
 * Splits the records of a bulk body into chunks by byte range while the body is scanned: the
 * records are never parsed at accept time. Also notes which elements are not objects (a 400).
 */
export class ChunkPlanner implements ElementSink {
  chunks: ChunkRange[] = [];
  total = 0;
  /** Indices of elements that are not objects (the first ones, one fewer than the problems listed) and their count. */
  nonObjects: number[] = [];
  nonObjectCount = 0;
  private readonly maxRecords: number;
  private readonly maxBytes: number;

  constructor(maxRecords = CHUNK_MAX_RECORDS, maxBytes = CHUNK_MAX_BYTES) {
    this.maxRecords = maxRecords;
    this.maxBytes = maxBytes;
  }

  reset() {
    this.chunks = [];
    this.total = 0;
    this.nonObjects = [];
    this.nonObjectCount = 0;
  }

  element(start: number, end: number, isObject: boolean) {
    const index = this.total++;
    if (!isObject) {
      this.nonObjectCount++;
      if (this.nonObjects.length < MAX_LISTED_PROBLEMS - 1) this.nonObjects.push(index);
    }
    const current = this.chunks.at(-1);
    if (current && current.count < this.maxRecords && end - current.offset <= this.maxBytes) {
      current.count++;
      current.length = end - current.offset;
    } else {
      this.chunks.push({ first: index, count: 1, offset: start, length: end - start });
    }
  }
}

/** The R2 key of a job's payload: the request body as it was received (chunks are byte ranges of it). */
export const payloadKey = (jobId: string) => `jobs/${jobId}/payload.json`;

const utf8 = new TextDecoder();

/** The records of a chunk from its bytes (the range read from the payload object). */
export function parseChunk(bytes: Uint8Array | string, range: ChunkRange): ChunkRecord[] | null {
  try {
    const text = typeof bytes === "string" ? bytes : utf8.decode(bytes);
    const parsed = JSON.parse(`[${text}]`) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== range.count) return null;
    return parsed.map((data, i) => ({ index: range.first + i, data }));
  } catch {
    return null;
  }
}

/**
 * Records one queue message applies at most: consecutive chunks cut at CHUNK_MAX_RECORDS (a large
 * payload of small records) are read, planned and committed together, up to this many records and
 * GROUP_MAX_BYTES of JSON, so a 10 MB job of small records pays a
 * tenth of the queue deliveries and D1 round trips. The chunk stays the unit of the ledger, the
 * counters and a replay.
 */
export const GROUP_MAX_RECORDS = 2_000;
export const GROUP_MAX_CHUNKS = GROUP_MAX_RECORDS / CHUNK_MAX_RECORDS;
/**
 * JSON bytes a group of several chunks spans at most. A message's heap grows with the JSON it
 * plans (about 30–40 MiB per MiB of product records, measured by the benchmark's memory stage), so
 * a group keeps within about 20 MiB: ten chunks of variant updates (~320 bytes a record) fit, two
 * chunks of full products (~560 KB each) do not. A single chunk may still reach CHUNK_MAX_BYTES.
 */
export const GROUP_MAX_BYTES = 640 * 1024;

/**
 * The chunks a message for chunk `first` applies: that chunk, then each following one while the
 * previous is full (CHUNK_MAX_RECORDS records), the next has no ledger row yet (`recorded`), and
 * the group stays within GROUP_MAX_RECORDS records and GROUP_MAX_BYTES. Chunks of fewer records
 * (cut by size, or the last of a job) end a group, so small jobs run one chunk per message as before.
 */
export function chunkGroup(
  first: number,
  rangeOf: (chunk: number) => ChunkRange | undefined,
  recorded: (chunk: number) => boolean = () => false,
): ChunkRange[] {
  const head = rangeOf(first);
  if (!head) return [];
  const group = [head];
  let records = head.count;
  for (;;) {
    const last = group.at(-1) as ChunkRange;
    const next = rangeOf(first + group.length);
    if (last.count !== CHUNK_MAX_RECORDS || group.length >= GROUP_MAX_CHUNKS || !next) break;
    if (recorded(first + group.length)) break;
    if (records + next.count > GROUP_MAX_RECORDS) break;
    if (next.offset + next.length - head.offset > GROUP_MAX_BYTES) break;
    group.push(next);
    records += next.count;
  }
  return group;
}

/** The byte range and records of consecutive chunks as one range (the commas between them included). */
export function spanOf(group: ChunkRange[]): ChunkRange {
  const head = group[0] as ChunkRange;
  const last = group.at(-1) as ChunkRange;
  return {
    first: head.first,
    count: group.reduce((n, r) => n + r.count, 0),
    offset: head.offset,
    length: last.offset + last.length - head.offset,
  };
}
