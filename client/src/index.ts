import createClient, { type Client } from "openapi-fetch";
import { type ChangesOptions, changes } from "./changes.ts";
import { type ExportedFile, type ExportJobOptions, exportJob } from "./exports.ts";
import { jobLogs, type SubmitBulkArgs, submitBulk, type WaitForJobOptions, waitForJob } from "./jobs.ts";
import type { LoosePaths } from "./loose.ts";
import { bearerAuth, bookmarkCarrier, idempotencyKeys } from "./middleware.ts";
import { type PaginateArgs, paginate } from "./paginate.ts";
import { DEFAULT_RETRY, type RetryOptions, retryingFetch } from "./retry.ts";
import type { paths } from "./schema.d.ts";
import type {
  BulkBody,
  BulkPath,
  ChangeEntry,
  ChangeResource,
  ExportBody,
  ExportKind,
  Job,
  JobAccepted,
  JobLogEntry,
  ListItem,
  ListPath,
  LogSeverity,
} from "./types.ts";

export { StorefrontApiError } from "./errors.ts";
export type { components, operations, paths } from "./schema.d.ts";
export type {
  BulkBody,
  BulkPath,
  ChangeEntry,
  ChangeResource,
  ChangesOptions,
  ExportBody,
  ExportedFile,
  ExportJobOptions,
  ExportKind,
  Job,
  JobAccepted,
  JobLogEntry,
  ListItem,
  ListPath,
  LogSeverity,
  RetryOptions,
  WaitForJobOptions,
};

export interface StorefrontClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  apiKey: string;
  /** The fetch to send requests with (default: the global one). */
  fetch?: (input: Request) => Promise<Response>;
  retry?: Partial<RetryOptions>;
}

export interface StorefrontClient {
  /** The typed openapi-fetch client: `api.GET("/api/v1/brands", { params: { query } })`. */
  api: Client<paths>;
  /** Every item of every page of a list. */
  paginate<P extends ListPath>(
    path: P,
    ...options: PaginateArgs<P>
  ): AsyncGenerator<ListItem<P>, void, undefined>;
  /** Polls a job until it is final; returns it. */
  waitForJob(jobId: string, options?: WaitForJobOptions): Promise<Job>;
  /** Posts a bulk body; returns the accepted job. */
  submitBulk<P extends BulkPath>(
    path: P,
    body: BulkBody<P>,
    ...options: SubmitBulkArgs<P>
  ): Promise<JobAccepted>;
  /** Every log entry of a job. */
  jobLogs(
    jobId: string,
    options?: { severity?: LogSeverity | LogSeverity[] },
  ): AsyncGenerator<JobLogEntry, void, undefined>;
  /** Starts an export of `kind`, waits for its job and opens its file as a stream. */
  exportJob(kind: ExportKind, options?: ExportJobOptions): Promise<ExportedFile>;
  /** The change feed after a cursor, entry by entry, until nothing newer is committed. */
  changes(options?: ChangesOptions): AsyncGenerator<ChangeEntry, void, undefined>;
}

/**
 * A client for the Storefront API. Every request carries the API key and the newest `x-d1-bookmark`
 * seen (read-your-writes across calls); network failures, 5xx and 429 are retried with backoff
 * honouring `Retry-After`; each POST gets an `Idempotency-Key` unless the caller set one, so a
 * retried POST is done once.
 */
export function createStorefrontClient(options: StorefrontClientOptions): StorefrontClient {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const clientOptions = { baseUrl: options.baseUrl, fetch: retryingFetch(baseFetch, retry) };
  const middleware = [bearerAuth(options.apiKey), bookmarkCarrier(), idempotencyKeys()];
  const api = createClient<paths>(clientOptions);
  const loose = createClient<LoosePaths>(clientOptions);
  api.use(...middleware);
  loose.use(...middleware);
  return {
    api,
    paginate: (path, ...rest) => paginate(loose, path, ...rest),
    waitForJob: (jobId, waitOptions) => waitForJob(api, jobId, waitOptions),
    submitBulk: (path, body, ...rest) => submitBulk(loose, path, body, ...rest),
    jobLogs: (jobId, logOptions) => jobLogs(loose, jobId, logOptions),
    exportJob: (kind, exportOptions) => exportJob(api, loose, kind, exportOptions),
    changes: (changeOptions) => changes(api, changeOptions),
  };
}
