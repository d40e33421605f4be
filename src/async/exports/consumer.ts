import { type SQL, sql } from "drizzle-orm";
import { storeSettingsOf } from "../../conventions/store-settings.ts";
import { rawBatch } from "../../db/raw.ts";
import type { Bindings, Db } from "../../env.ts";
import { log } from "../../lib/log.ts";
import { isoSeconds } from "../../lib/time.ts";
import { finalizeJob, type OnJobFinalized } from "../bulk/finalize.ts";
import { isJobClosed, isLedgerConflict, ledgerInsert, WHOLE_CHUNK } from "../bulk/ledger.ts";
import type { ExportJobType, JobMessage, JobRow } from "../bulk/types.ts";
import { csvCells, csvLine } from "./csv.ts";
import { GZIP_END_BYTES, GZIP_HEADER, gzipEnd, TextDeflater, type TextSum } from "./gzip-text.ts";
import { carryKey, resultKey, resultMetadata } from "./keys.ts";
import type { ExportBounds, ExportOperation, ExportOperations, ExportRow } from "./operation.ts";
import { exportConditions, rowsAfter } from "./pages.ts";
import { PartBuffer } from "./part-buffer.ts";
import { PartUploads } from "./part-uploads.ts";
import { discard, type ExportState, type StateRow, stateOf } from "./state.ts";

/**
 * Every part of the file but the last has exactly this size: R2 completes a multipart upload only
 * when its parts are of one size, at least 5 MiB (the last may be smaller).
 */
export const PART_BYTES = 5 * 1024 * 1024;
/**
 * Parts a message writes at most (each message claims as many part numbers): a part uploads while
 * the next is read. The parts hold gzip-compressed text (src/async/exports/gzip-text.ts), about
 * ten times as many records as their size. R2's 10,000 part numbers allow a 50 GB file (about
 * 500 GB of text).
 */
export const PARTS_PER_MESSAGE = 2;
/**
 * Pages a message reads at most (some 1,600 products of the scale-500 catalog, 14 MB of text,
 * 1.5 MB compressed: less than a part, which a later message completes from the carried bytes).
 * Each page leaves its garbage until V8 collects it, so the heap peak per message grows with its
 * pages: in Node it was 119 MiB at 57 pages a message (two compressed parts) and 66 MiB at 16
 * (bench/RESULTS.md, the export stage); 8 keep it near the bulk path's chunks. It also bounds the
 * message's D1 queries (a page is one batch of up to 4 statements) and its time.
 */
const MESSAGE_PAGES = 8;
/** Listed rows per page: the first page's, then sized to about `PAGE_TEXT_BYTES` of text (within these bounds). */
const FIRST_PAGE = 100;
const MIN_PAGE = 20;
const MAX_PAGE = 200;
/** The text a page is sized to at most: a page's rows, text and compressed bytes are in memory at once. */
const PAGE_TEXT_BYTES = PART_BYTES;

/**
 * One message of an export job: message `k` resumes after the last row the file holds, writes
 * pages of records, uploading each part as it fills, up to `PARTS_PER_MESSAGE` parts (or, at the
 * end, the last one and completes the file), keeps the bytes past its last part in R2 for message
 * k+1, and commits where it stopped with the job's ledger row for `k`: a second delivery of `k`
 * finds that row and commits nothing, a job closed meanwhile (canceled, given up) refuses the
 * batch. Each delivery uploads with part numbers of its own, so one that loses never overwrote the
 * winner's parts.
 * The job's `chunk_count` is the number of messages so far, the next one included: the liveness
 * sweep re-drives `chunk_count - 1`, the message to run next.
 */
export async function runExportMessage(
  env: Bindings,
  db: Db,
  job: JobRow,
  message: JobMessage,
  operations: ExportOperations,
  onFinalized: OnJobFinalized,
): Promise<void> {
  const started = Date.now();
  const k = message.chunk;
  const [claimed] = await rawBatch(env.DB, [
    sql`UPDATE job_exports SET part_seq = part_seq + ${PARTS_PER_MESSAGE} WHERE job_id = ${job.id} RETURNING *`,
  ]);
  const state = stateOf(claimed?.results[0] as StateRow | undefined);
  if (!state) return;
  if (job.status !== "running") {
    // Final: a retried last message runs the hooks again; any other leaves the unfinished file.
    if (state.completed && k === job.chunkCount - 1) await onFinalized(env, job);
    else if (!state.completed) await discard(env, job.id, state);
    return;
  }
  if (k !== job.chunkCount - 1) return;
  if (state.completed) {
    // Committed by an earlier delivery that did not live to finalize.
    await finalizeJob(env, db, job.id, onFinalized, { rule: "file" });
    return;
  }
  const op = operations[job.type as ExportJobType];
  const written = await writeParts(env, op, job, state);
  const outcome = await commit(env, job, k, written);
  log("info", "job.export_part", {
    job_id: job.id,
    message: k,
    records: written.lines,
    uploaded_bytes: written.uploaded,
    carried_bytes: written.carried,
    duration_ms: Date.now() - started,
    outcome,
  });
  if (outcome !== "mine") return;
  if (written.complete) await finalizeJob(env, db, job.id, onFinalized, { rule: "file" });
  else await env.JOBS_QUEUE.send({ jobId: job.id, chunk: k + 1 }, { contentType: "json" });
  // The bytes this message read back are in its part now. Last: a failure here costs a stray
  // object (retention deletes only the recorded one), never a stalled job.
  if (state.carryKey) {
    await env.PAYLOADS.delete(state.carryKey).catch((err: unknown) =>
      log("warn", "job.export_carry_left", { job_id: job.id, key: state.carryKey, error: String(err) }),
    );
  }
}

interface Written {
  bounds: ExportBounds;
  /** Set on the first message: the records the export will write. */
  total?: number;
  cursor: number;
  lines: number;
  uploadId: string | null;
  /** Whether this delivery created the upload (it aborts it if its commit loses). */
  createdUpload: boolean;
  parts: R2UploadedPart[];
  carryKey: string | null;
  /** Bytes read back from the previous message (counted by it already). */
  carriedIn: number;
  uploaded: number;
  carried: number;
  /** The text written so far, this message's included. */
  text: TextSum;
  complete: boolean;
}

/**
 * Reads pages from where the file stopped, compresses each page's text onto the file's gzip
 * stream and writes up to `PARTS_PER_MESSAGE` parts (or the file's end) to R2.
 */
async function writeParts(
  env: Bindings,
  op: ExportOperation,
  job: JobRow,
  state: ExportState,
): Promise<Written> {
  const filters = (job.params.filters ?? {}) as Record<string, string>;
  const conditions = exportConditions(op.resource, filters, { store: await storeSettingsOf(env.DB) });
  let buffer = new PartBuffer(PART_BYTES);
  let { bounds } = state;
  let total: number | undefined;
  let carriedIn = 0;
  const text = { ...state.text };
  const deflater = new TextDeflater(text);
  if (!bounds) {
    bounds = await boundsOf(env, op);
    const [counted] = await rawBatch(env.DB, [
      op.count(rowsAfter(op.resource, conditions, 0, bounds.id ?? 0), bounds),
    ]);
    total = (counted?.results[0] as { n: number } | undefined)?.n ?? 0;
    buffer.push(GZIP_HEADER);
    if (state.format === "csv") deflater.write(csvLine(op.csvColumns));
  } else if (state.carryKey) {
    const carried = await env.PAYLOADS.get(state.carryKey);
    if (!carried) throw new Error(`export ${job.id}: the carried bytes ${state.carryKey} are missing`);
    buffer.push(new Uint8Array(await carried.arrayBuffer()));
    carriedIn = buffer.size;
  }
  const key = resultKey(job.id);
  const written: Written = {
    bounds,
    ...(total === undefined ? {} : { total }),
    cursor: state.cursor,
    lines: 0,
    uploadId: state.uploadId,
    createdUpload: false,
    parts: [...state.parts],
    carryKey: null,
    carriedIn,
    uploaded: 0,
    carried: 0,
    text,
    complete: false,
  };
  const first = state.partNumber - PARTS_PER_MESSAGE + 1;
  const uploads = new PartUploads(env, key, state.format, written, first, PARTS_PER_MESSAGE);
  let limit = FIRST_PAGE;
  let pages = 0;
  /** Every record is in the stream; `ended`: its end too (the gzip trailer). */
  let textDone = false;
  let ended = false;
  for (;;) {
    const full = ended ? buffer.size > PART_BYTES : buffer.size >= PART_BYTES;
    if (full && uploads.left > 0) {
      const [part, rest] = buffer.cut();
      await uploads.add(part);
      buffer = new PartBuffer(PART_BYTES);
      buffer.push(rest);
      continue;
    }
    if (textDone) {
      // The end goes in only if this delivery can then write the rest (a part number for each
      // part left); otherwise the bytes are carried and the next message ends the file.
      if (ended || Math.ceil((buffer.size + GZIP_END_BYTES) / PART_BYTES) > uploads.left) break;
      buffer.push(gzipEnd(text));
      ended = true;
      continue;
    }
    if (uploads.left === 0 || pages === MESSAGE_PAGES) break;
    const page = rowsAfter(op.resource, conditions, written.cursor, bounds.id ?? 0, limit);
    const [ids, ...found] = await rawBatch(env.DB, [page, ...op.statements(page, bounds)]);
    pages++;
    const pageIds = ((ids?.results ?? []) as { id: number }[]).map((r) => r.id);
    const last = pageIds.at(-1);
    if (last === undefined) {
      textDone = true;
      for (const piece of deflater.take()) buffer.push(piece);
      continue;
    }
    const records = op.lines(found.map((r) => r.results as ExportRow[]));
    const before = text.bytes;
    for (const record of records) {
      if (state.format === "csv") deflater.write(csvLine(csvCells(op.csvColumns, JSON.parse(record))));
      else {
        deflater.write(record);
        deflater.write("\n");
      }
    }
    for (const piece of deflater.take()) buffer.push(piece);
    written.lines += records.length;
    written.cursor = last;
    if (pageIds.length < limit) textDone = true;
    const perRow = Math.max(1, (text.bytes - before) / pageIds.length);
    limit = Math.min(MAX_PAGE, Math.max(MIN_PAGE, Math.ceil(PAGE_TEXT_BYTES / perRow)));
  }
  written.complete = ended;
  if (written.complete && written.parts.length === 0 && !uploads.started) {
    // The whole file fits one part: one object, no upload.
    const [file] = buffer.cut(true);
    await env.PAYLOADS.put(key, file, { httpMetadata: resultMetadata(state.format) });
    written.uploaded = buffer.size;
    return written;
  }
  if (written.complete) {
    const [part] = buffer.cut(true);
    await uploads.add(part);
    await uploads.settle();
    await env.PAYLOADS.resumeMultipartUpload(key, written.uploadId as string).complete(written.parts);
    return written;
  }
  await uploads.settle();
  if (buffer.size > 0) {
    // Over a part only when a page alone was: what is left, whole.
    const [head, tail] = buffer.cut(true);
    const carried = new Uint8Array(buffer.size);
    carried.set(head);
    carried.set(tail, head.length);
    written.carryKey = carryKey(job.id, state.partNumber);
    await env.PAYLOADS.put(written.carryKey, carried);
    written.carried = carried.length;
  }
  return written;
}

async function boundsOf(env: Bindings, op: ExportOperation): Promise<ExportBounds> {
  const { idColumn, table } = op.resource;
  const [ids, extra] = await rawBatch(env.DB, [
    sql`SELECT coalesce(max(${idColumn}), 0) AS id FROM ${table}`,
    ...(op.bounds ? [op.bounds] : []),
  ]);
  const row = (r: D1Result | undefined) => (r?.results[0] ?? {}) as Record<string, number | null>;
  return Object.fromEntries(
    Object.entries({ ...row(extra), ...row(ids) }).map(([name, value]) => [name, value ?? 0]),
  );
}

type Outcome = "mine" | "theirs" | "closed";

/**
 * Where the file stopped, its parts and carried bytes, and the job's counters, with the ledger row
 * of message `k` first (src/async/bulk/ledger.ts). A delivery whose batch is refused cleans up what
 * only it wrote.
 */
async function commit(env: Bindings, job: JobRow, k: number, w: Written): Promise<Outcome> {
  const now = isoSeconds();
  const total = w.complete ? sql`processed_records + ${w.lines}` : (w.total ?? sql`total_records`);
  const statements: SQL[] = [
    ledgerInsert(job.id, k, WHOLE_CHUNK),
    sql`UPDATE job_exports SET bounds = ${JSON.stringify(w.bounds)}, cursor = ${w.cursor},
        upload_id = ${w.uploadId}, parts = ${JSON.stringify(w.parts)}, carry_key = ${w.carryKey},
        bytes = bytes + ${w.uploaded + w.carried - w.carriedIn},
        text_bytes = ${w.text.bytes}, text_crc = ${w.text.crc},
        completed_at = ${w.complete ? now : null}
      WHERE job_id = ${job.id}`,
    sql`UPDATE jobs SET processed_records = processed_records + ${w.lines},
        succeeded_records = succeeded_records + ${w.lines}, total_records = ${total},
        chunk_count = ${w.complete ? k + 1 : k + 2}, heartbeat_at = ${now}, redrives = 0
      WHERE id = ${job.id}`,
  ];
  if (w.complete) {
    statements.push(sql`INSERT INTO job_logs (job_id, created_at, severity, code, message)
      SELECT j.id, ${now}, 'INFO', NULL,
        printf('The file holds %d records (%d bytes, %d gzip-compressed): GET /api/v1/jobs/%s/result.', j.processed_records, e.text_bytes, e.bytes, j.id)
      FROM jobs j CROSS JOIN job_exports e ON e.job_id = j.id WHERE j.id = ${job.id}`);
    statements.push(sql`UPDATE jobs SET log_info_count = log_info_count + 1 WHERE id = ${job.id}`);
  }
  try {
    await rawBatch(env.DB, statements);
    return "mine";
  } catch (err) {
    const closed = isJobClosed(err);
    if (!closed && !isLedgerConflict(err)) throw err;
    const cleanup: Promise<unknown>[] = [];
    if (w.carryKey) cleanup.push(env.PAYLOADS.delete(w.carryKey));
    if (w.createdUpload && w.uploadId && !w.complete)
      cleanup.push(env.PAYLOADS.resumeMultipartUpload(resultKey(job.id), w.uploadId).abort());
    // A file completed for a job closed meanwhile is no result of it.
    if (w.complete && closed) cleanup.push(env.PAYLOADS.delete(resultKey(job.id)));
    await Promise.allSettled(cleanup);
    return closed ? "closed" : "theirs";
  }
}
