import { sql } from "drizzle-orm";
import { rawBatch } from "../../db/raw.ts";
import type { Bindings } from "../../env.ts";
import type { TextSum } from "./gzip-text.ts";
import { resultKey } from "./keys.ts";
import type { ExportBounds, ExportFormat } from "./operation.ts";

/** An export's progress as its `job_exports` row keeps it (src/db/schema/jobs.ts). */
export interface ExportState {
  format: ExportFormat;
  bounds: ExportBounds | null;
  cursor: number;
  uploadId: string | null;
  /** The last of the part numbers this delivery uploads with (handed out by the message's first statement). */
  partNumber: number;
  parts: R2UploadedPart[];
  carryKey: string | null;
  bytes: number;
  /** The text written so far (decompressed), for the gzip trailer. */
  text: TextSum;
  completed: boolean;
}

export interface StateRow {
  format: ExportFormat;
  bounds: string | null;
  cursor: number;
  upload_id: string | null;
  part_seq: number;
  parts: string;
  carry_key: string | null;
  bytes: number;
  text_bytes: number;
  text_crc: number;
  completed_at: string | null;
}

export function stateOf(row: StateRow | undefined): ExportState | null {
  if (!row) return null;
  return {
    format: row.format,
    bounds: row.bounds ? (JSON.parse(row.bounds) as ExportBounds) : null,
    cursor: row.cursor,
    uploadId: row.upload_id,
    partNumber: row.part_seq,
    parts: JSON.parse(row.parts) as R2UploadedPart[],
    carryKey: row.carry_key,
    bytes: row.bytes,
    text: { crc: row.text_crc, bytes: row.text_bytes },
    completed: row.completed_at !== null,
  };
}

/** After an export was given up (a dead letter): its unfinished upload and carried bytes go. */
export async function abandonExport(env: Bindings, jobId: string) {
  const [row] = await rawBatch(env.DB, [sql`SELECT * FROM job_exports WHERE job_id = ${jobId}`]);
  const state = stateOf(row?.results[0] as StateRow | undefined);
  if (state && !state.completed) await discard(env, jobId, state);
}

/** An export that will not finish: its unfinished upload and carried bytes go. */
export async function discard(env: Bindings, jobId: string, state: ExportState) {
  const tasks: Promise<unknown>[] = [];
  if (state.uploadId)
    tasks.push(env.PAYLOADS.resumeMultipartUpload(resultKey(jobId), state.uploadId).abort());
  if (state.carryKey) tasks.push(env.PAYLOADS.delete(state.carryKey));
  await Promise.allSettled(tasks);
}
