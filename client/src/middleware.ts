import type { Middleware } from "openapi-fetch";

const BOOKMARK_HEADER = "x-d1-bookmark";

/** Sends the API key as a bearer token on every request. */
export function bearerAuth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${apiKey}`);
      return request;
    },
  };
}

/**
 * Read-your-writes across calls: every request carries the newest `x-d1-bookmark` seen so far (unless
 * the caller set one), and every answer's bookmark replaces it when newer. D1 bookmarks are
 * fixed-width hexadecimal, so their string order is their commit order.
 */
export function bookmarkCarrier(): Middleware {
  let newest: string | undefined;
  return {
    onRequest({ request }) {
      if (newest !== undefined && !request.headers.has(BOOKMARK_HEADER)) {
        request.headers.set(BOOKMARK_HEADER, newest);
      }
      return request;
    },
    onResponse({ response }) {
      const bookmark = response.headers.get(BOOKMARK_HEADER);
      if (bookmark && (newest === undefined || bookmark > newest)) newest = bookmark;
    },
  };
}

/**
 * One `Idempotency-Key` per logical POST (unless the caller set one), added before the retrying
 * fetch sees the request: every retry of that call sends the same key, so the service does the work
 * once and replays its answer.
 */
export function idempotencyKeys(): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === "POST" && !request.headers.has("Idempotency-Key")) {
        request.headers.set("Idempotency-Key", crypto.randomUUID());
      }
      return request;
    },
  };
}
