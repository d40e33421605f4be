import type { Client } from "openapi-fetch";
import { StorefrontApiError } from "./errors.ts";
import type { LooseClient } from "./loose.ts";
import { paginate } from "./paginate.ts";
import { wait } from "./retry.ts";
import type { paths } from "./schema.d.ts";
import type {
  BulkBody,
  BulkPath,
  BulkPathParams,
  Job,
  JobAccepted,
  JobLogEntry,
  LogSeverity,
} from "./types.ts";

const FINAL_STATUSES: ReadonlySet<string> = new Set(["done", "done_with_errors", "failed"]);

export interface WaitForJobOptions {
  /** Called with the job after every poll, the final one included. */
  onProgress?: (job: Job) => void;
  /** Pause between polls (default 1000 ms). */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** Polls `GET /api/v1/jobs/{id}` until the job is `done`, `done_with_errors` or `failed`; returns it. */
export async function waitForJob(
  api: Client<paths>,
  jobId: string,
  options: WaitForJobOptions = {},
): Promise<Job> {
  const intervalMs = options.intervalMs ?? 1000;
  for (;;) {
    options.signal?.throwIfAborted();
    const { data, error, response } = await api.GET("/api/v1/jobs/{id}", {
      params: { path: { id: jobId } },
      signal: options.signal ?? null,
    });
    if (data === undefined) throw new StorefrontApiError("GET", response.url, response.status, error);
    options.onProgress?.(data);
    if (data.status !== undefined && FINAL_STATUSES.has(data.status)) return data;
    await wait(intervalMs, options.signal);
  }
}

type SubmitBulkOptions<P extends BulkPath> = {
  /** Sent as `Idempotency-Key`; without one, the client makes a random key for this call. */
  idempotencyKey?: string;
} & ([BulkPathParams<P>] extends [never] ? { params?: undefined } : { params: { path: BulkPathParams<P> } });

export type SubmitBulkArgs<P extends BulkPath> = [BulkPathParams<P>] extends [never]
  ? [options?: SubmitBulkOptions<P>]
  : [options: SubmitBulkOptions<P>];

/** Posts a bulk body and returns the accepted job (`{ job_id, status }`). */
export async function submitBulk<P extends BulkPath>(
  client: LooseClient,
  path: P,
  body: BulkBody<P>,
  ...[options]: SubmitBulkArgs<P>
): Promise<JobAccepted> {
  const headers: Record<string, string> = options?.idempotencyKey
    ? { "Idempotency-Key": options.idempotencyKey }
    : {};
  const { data, error, response } = await client.POST(path, { params: options?.params ?? {}, body, headers });
  const accepted = Array.isArray(data) ? data[0] : undefined;
  if (!response.ok || !isJobAccepted(accepted)) {
    throw new StorefrontApiError("POST", response.url, response.status, error ?? data);
  }
  return accepted;
}

function isJobAccepted(value: unknown): value is JobAccepted {
  return (
    typeof value === "object" &&
    value !== null &&
    "job_id" in value &&
    typeof value.job_id === "string" &&
    "status" in value &&
    value.status === "pending"
  );
}

/** Every log entry of a job, optionally only some severities. */
export function jobLogs(
  client: LooseClient,
  jobId: string,
  options: { severity?: LogSeverity | LogSeverity[] } = {},
): AsyncGenerator<JobLogEntry, void, undefined> {
  const severity = options.severity === undefined ? undefined : [options.severity].flat();
  return paginate(client, "/api/v1/jobs/{id}/logs", {
    params: { path: { id: jobId }, query: { per_page: 500, ...(severity ? { severity } : {}) } },
  });
}
