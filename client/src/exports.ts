import type { Client } from "openapi-fetch";
import { StorefrontApiError } from "./errors.ts";
import { type WaitForJobOptions, waitForJob } from "./jobs.ts";
import type { LooseClient } from "./loose.ts";
import type { paths } from "./schema.d.ts";
import type { ExportBody, ExportKind, Job } from "./types.ts";

export interface ExportJobOptions extends WaitForJobOptions {
  /** The products list's filters, with their query-string values (`{ brand_ids: "1,2" }`). */
  filters?: ExportBody["filters"];
  /** `jsonl` (default) or `csv`. */
  format?: ExportBody["format"];
  /** Sent as `Idempotency-Key`; without one, the client makes a random key for this call. */
  idempotencyKey?: string;
  /** Called with the job's id once the export is accepted, before it is followed. */
  onAccepted?: (jobId: string) => void;
}

export interface ExportedFile {
  /** The export job, final. */
  job: Job;
  /** The file as it streams from the service (gzip on the wire, decoded by fetch). */
  body: ReadableStream<Uint8Array>;
}

/**
 * Starts an export (`POST /api/v1/<kind>/export`), waits for its job to end and opens its file
 * (`GET /api/v1/jobs/{id}/result`). Throws `StorefrontApiError` when the service refuses the export
 * or the job ended without a file (canceled).
 */
export async function exportJob(
  api: Client<paths>,
  loose: LooseClient,
  kind: ExportKind,
  options: ExportJobOptions = {},
): Promise<ExportedFile> {
  const body: ExportBody = {
    ...(options.filters ? { filters: options.filters } : {}),
    ...(options.format ? { format: options.format } : {}),
  };
  const headers: Record<string, string> = options.idempotencyKey
    ? { "Idempotency-Key": options.idempotencyKey }
    : {};
  const path = `/api/v1/${kind}/export`;
  const { data, error, response } = await loose.POST(path, { body, headers, signal: options.signal ?? null });
  const jobId = Array.isArray(data) ? (data[0] as { job_id?: unknown } | undefined)?.job_id : undefined;
  if (!response.ok || typeof jobId !== "string") {
    throw new StorefrontApiError("POST", response.url, response.status, error ?? data);
  }
  options.onAccepted?.(jobId);
  const job = await waitForJob(api, jobId, options);
  const file = await api.GET("/api/v1/jobs/{id}/result", {
    params: { path: { id: jobId } },
    parseAs: "stream",
    signal: options.signal ?? null,
  });
  if (!file.response.ok || !file.data) {
    throw new StorefrontApiError("GET", file.response.url, file.response.status, file.error);
  }
  return { job, body: file.data as ReadableStream<Uint8Array> };
}
