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
  const carriesBody = (declared !== undefined && declared !== "0") || c.req.raw.body !== null;
  if (carriesBody && !isJson(contentType ?? "")) {
    throw new ApiError(
      "unsupported_media_type",
      `Content-Type must be application/json, got ${contentType ? `'${contentType}'` : "none"}`,
      [{ location: "header", path: "content-type", message: "must be application/json" }],
    );
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  c.set("rawBody", await readLimited(c.req.raw.body, limit));
  await next();
};

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `Request body exceeds ${limit} bytes`, [
    { location: "body", path: "", message: `must be at most ${limit} bytes` },
  ]);

async function readLimited(stream: ReadableStream<Uint8Array> | null, limit: number) {
  const bytes = await readCapped(stream, limit);
  if (bytes === null) throw tooLarge(limit);
  return bytes;
}
