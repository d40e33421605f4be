import { safeFetch } from "../../http/outbound-guard.ts";
import { DELIVERY_TIMEOUT_MS, RESPONSE_MAX_BYTES } from "./retry-policy.ts";
import { signPayload } from "./signature.ts";

export interface SignedRequest {
  url: string;
  secret: string;
  messageId: string;
  /** Unix seconds, the same instant as the body's `timestamp`. */
  timestamp: number;
  body: string;
}

export interface AttemptOutcome {
  succeeded: boolean;
  /** The receiver's status, when it answered. */
  responseStatus: number | null;
  /** Why the attempt failed without an answer (timeout, refused URL, network, redirect). */
  error: string | null;
  durationMs: number;
}

/** Tests shorten the timeout; deliveries always use DELIVERY_TIMEOUT_MS. */
export interface SendOptions {
  timeoutMs?: number;
}

/**
 * One signed POST through the shared outbound guard. Redirects are not followed (a 3xx is a failed
 * attempt, as with most webhook senders: a redirected POST could silently turn into a GET), the
 * answer's body is read up to RESPONSE_MAX_BYTES and otherwise ignored, and only a 2xx succeeds.
 */
export async function sendSigned(
  env: { ENVIRONMENT: string },
  request: SignedRequest,
  options: SendOptions = {},
): Promise<AttemptOutcome> {
  const signature = await signPayload(request.secret, request.messageId, request.timestamp, request.body);
  const started = Date.now();
  const result = await safeFetch(request.url, {
    env,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    maxBytes: RESPONSE_MAX_BYTES,
    maxRedirects: 0,
    init: {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Storefront-Webhooks/1.0",
        "webhook-id": request.messageId,
        "webhook-timestamp": String(request.timestamp),
        "webhook-signature": signature,
      },
      body: request.body,
    },
  });
  const durationMs = Math.max(0, Date.now() - started);
  if (result.ok) {
    const succeeded = result.status >= 200 && result.status <= 299;
    const redirect = result.status >= 300 && result.status <= 399;
    return {
      succeeded,
      responseStatus: result.status,
      error: redirect ? "answered a redirect; deliveries do not follow redirects" : null,
      durationMs,
    };
  }
  // An answer whose body is over the cap still counts by its status: the body is never used.
  if (result.reason === "too_large" && result.status !== undefined) {
    return {
      succeeded: result.status >= 200 && result.status <= 299,
      responseStatus: result.status,
      error: null,
      durationMs,
    };
  }
  // With `maxRedirects: 0` the guard reports any redirect this way, before looking at its target.
  const error =
    result.reason === "failed" && result.message === "more than 0 redirects"
      ? "answered a redirect; deliveries do not follow redirects"
      : `url ${result.message}`;
  return { succeeded: false, responseStatus: null, error, durationMs };
}
