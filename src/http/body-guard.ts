import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "./problem.ts";
import { readCapped } from "./read-capped.ts";

export const STANDARD_BODY_LIMIT = 1024 * 1024;
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;

const isJson = (contentType: string) => {
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[\w.+-]+\+json$/.test(mediaType);
};

/**
 * 415 for a write body that is not JSON, 413 over the route's limit (Content-Length first, then
 * the bytes actually read, so a lying or missing length cannot slip through). The bytes are kept
 * for validation and the idempotency fingerprint.
 */
export const bodyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const meta = c.get("routeMeta");
  if (meta.bodyLimit === "none") {
    c.set("rawBody", undefined);
    return next();
  }
  const limit = meta.bodyLimit === "bulk" ? BULK_BODY_LIMIT : STANDARD_BODY_LIMIT;
  const contentType = c.req.header("content-type");
  const declared = c.req.header("content-length");
  if (!isJson(contentType ?? "")) {
    // A declared length says whether a body comes. Without one, an empty stream is no body: a POST
    // sent with no body reaches the Worker through a proxy (wrangler dev) as a stream of no bytes.
    if (declared !== undefined && declared !== "0") throw notJson(contentType);
    if (declared === undefined && c.req.raw.body !== null && !(await isEmpty(c.req.raw.body))) {
      throw notJson(contentType);
    }
    c.set("rawBody", new Uint8Array(0));
    return next();
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  c.set("rawBody", await readLimited(c.req.raw.body, limit));
  await next();
};

/** Whether a stream ends before its first byte; reads no further than that byte. */
async function isEmpty(stream: ReadableStream<Uint8Array>): Promise<boolean> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    if (value.byteLength > 0) {
      await reader.cancel();
      return false;
    }
  }
}

const notJson = (contentType: string | undefined) =>
  new ApiError(
    "unsupported_media_type",
    `Content-Type must be application/json, got ${contentType ? `'${contentType}'` : "none"}`,
    [{ location: "header", path: "content-type", message: "must be application/json" }],
  );

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `Request body exceeds ${limit} bytes`, [
    { location: "body", path: "", message: `must be at most ${limit} bytes` },
  ]);

async function readLimited(stream: ReadableStream<Uint8Array> | null, limit: number) {
  const bytes = await readCapped(stream, limit);
  if (bytes === null) throw tooLarge(limit);
  return bytes;
}
