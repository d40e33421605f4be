/** One generated request, exactly as it is sent. */
export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent (may hold malformed percent escapes). */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Short description of a request for failure messages (bodies cut). */
export const describeRequest = (req: FuzzRequest) =>
  `${req.method} ${req.url.slice(0, 300)}${req.url.length > 300 ? "…" : ""} [${req.headers["content-type"] ?? "no content-type"}] ${
    req.body === undefined ? "" : `${req.body.length} bytes: ${req.body.slice(0, 300)}`
  }`;
