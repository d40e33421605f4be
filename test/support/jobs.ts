import { env } from "cloudflare:test";
import { jobInserts } from "../../src/async/bulk/accept.ts";
import {
  CHUNK_MAX_RECORDS,
  ChunkPlanner,
  type ChunkRange,
  parseChunk,
  payloadKey,
} from "../../src/async/bulk/chunking.ts";
import { processJobMessage } from "../../src/async/bulk/consumer.ts";
import type { BulkJobType, JobMessage } from "../../src/async/bulk/types.ts";
import { rawBatch } from "../../src/db/raw.ts";
import { scanJson } from "../../src/http/json-scan.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { api } from "./api.ts";
import { recordingQueue } from "./queues.ts";

export interface JobView {
  id: string;
  type: string;
  status: string;
  summary: Record<string, number>;
}

/** How many jobs exist (accepted bulk requests). */
export async function jobCount() {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>();
  return row?.n ?? 0;
}

/** Posts a bulk request and returns its job id (asserting the 202 answer shape). */
export async function submitBulk(path: string, body: unknown): Promise<string> {
  const res = await api(path, { method: "POST", body });
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status}: ${res.text}`);
  return res.json[0].job_id as string;
}

/** Polls the job until it reaches a final state (the real queue consumer runs in the background). */
export async function waitForJob(jobId: string, timeoutMs = 15_000): Promise<JobView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/api/v1/jobs/${jobId}`);
    if (["done", "done_with_errors", "failed"].includes(res.json?.status)) return res.json as JobView;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} still ${res.json?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function jobLogs(jobId: string, query = "") {
  const res = await api(`/api/v1/jobs/${jobId}/logs${query ? `?${query}` : ""}`);
  return res.json.data as {
    id: number;
    severity: string;
    code: string | null;
    message: string;
    identifiers: Record<string, unknown> | null;
    affected_fields: string[] | null;
  }[];
}

/** The chunks a bulk body's records array at `key` is split into, exactly as accepting it does. */
export function planChunks(body: string, key: string, maxRecords = CHUNK_MAX_RECORDS) {
  const bytes = new TextEncoder().encode(body);
  const planner = new ChunkPlanner(maxRecords);
  const scan = scanJson(bytes, { elementsOf: { key, sink: planner } });
  if (!scan.ok) throw new Error(`not a valid bulk body: ${scan.problem.message}`);
  const records = (range: ChunkRange) =>
    parseChunk(bytes.subarray(range.offset, range.offset + range.length), range) ?? [];
  return { bytes, planner, records };
}

/**
 * A job exactly as acceptance leaves it (payload object in R2, chunk ranges, a `pending` row), but
 * with chunks of `chunkSize` records and no message sent: the test delivers every message itself.
 */
export async function stageJob(
  type: BulkJobType,
  records: unknown[],
  params: Record<string, unknown>,
  chunkSize = CHUNK_MAX_RECORDS,
): Promise<string> {
  const jobId = crypto.randomUUID();
  const { bytes, planner } = planChunks(JSON.stringify({ records }), "records", chunkSize);
  await env.PAYLOADS.put(payloadKey(jobId), bytes);
  await rawBatch(env.DB, jobInserts(jobId, type, planner, params, null));
  return jobId;
}

/**
 * The worker's bindings with a jobs queue that only records what is sent (nothing runs by itself);
 * `sent` keeps each message's pointer (job, chunk), without the byte range it may carry.
 */
export function capturingEnv() {
  const { queue, sent } = recordingQueue<JobMessage>((message) => ({
    jobId: message.jobId,
    chunk: message.chunk,
  }));
  const testEnv: typeof env = { ...env, JOBS_QUEUE: queue };
  return { testEnv, sent };
}

/** The worker's bindings with a jobs queue that drops every message. */
export const quietEnv = () => capturingEnv().testEnv;

/**
 * Delivers a staged job's messages one after the other, from its first chunk, until none is left
 * (the job is final): `testEnv`'s jobs queue must be `jobs`, which records what each message sends.
 * Answers how many messages were delivered.
 */
export async function deliverAll(
  testEnv: typeof env,
  jobs: { sent: JobMessage[] },
  jobId: string,
): Promise<number> {
  let message: JobMessage | undefined = { jobId, chunk: 0 };
  let messages = 0;
  while (message) {
    await processJobMessage(testEnv, message, JOB_PIPELINE);
    messages++;
    message = jobs.sent.shift();
  }
  return messages;
}

/** A job's log entries as two runs of the same records are compared (no ids, no times). */
export async function logOutcomes(jobId: string) {
  return (await jobLogs(jobId, "per_page=500")).map(
    ({ severity, code, message, identifiers, affected_fields }) => ({
      severity,
      code,
      message,
      identifiers,
      affected_fields,
    }),
  );
}
