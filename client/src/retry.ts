/** How often, and how patiently, a request that failed for a passing reason is sent again. */
export interface RetryOptions {
  /** Attempts in all, the first one included (default 4). */
  attempts: number;
  /** Wait before the first retry; it doubles each time, with jitter (default 250 ms). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseDelayMs: 250 };

/** The longest wait a `Retry-After` may ask for before the client gives up on it instead. */
const MAX_RETRY_AFTER_MS = 60_000;

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `fetch` so that a network failure, a 5xx or a 429 is sent again (the same request, body and
 * headers, so a POST keeps its `Idempotency-Key`) after a backoff, or after the answer's
 * `Retry-After` when it gives one. The last attempt's answer or error is the caller's.
 */
export function retryingFetch(inner: Fetch, options: RetryOptions): Fetch {
  return async (request, init) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= options.attempts;
      let response: Response;
      try {
        response = await inner(last ? request : request.clone(), init);
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await wait(backoffMs(options, attempt), request.signal);
        continue;
      }
      if (last || !isRetryable(response.status)) return response;
      const delay = retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(options, attempt);
      if (delay > MAX_RETRY_AFTER_MS) return response;
      await response.body?.cancel();
      await wait(delay, request.signal);
    }
  };
}

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

function backoffMs(options: RetryOptions, attempt: number): number {
  const exponential = options.baseDelayMs * 2 ** (attempt - 1);
  return exponential / 2 + Math.random() * (exponential / 2);
}

/** `Retry-After` in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A pause that ends early, rejecting with the signal's reason, when the signal aborts. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
