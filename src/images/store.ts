import type { Context } from "hono";
import type { AppEnv, Bindings } from "../env.ts";
import { safeFetch } from "../http/outbound-guard.ts";
import { ApiError } from "../http/problem.ts";
import { declaredImageType, IMAGE_TYPES, type ImageExtension, sniffImageType } from "./sniff.ts";

export const IMAGE_TIMEOUT_MS = 5_000;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** `<sha256 hex>.<ext>`: the R2 key and the last path segment of the served URL. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{64}\.(png|jpg|webp|gif|avif)$/;

/**
 * Downloads a client-supplied image URL through the outbound guard, checks it is png, jpeg, webp,
 * gif or avif (declared type and magic bytes agree), stores it in R2 under its SHA-256 and returns
 * the URL the service serves it at. Throws 400 `invalid_body` for a URL the guard refuses and 400
 * `image_unavailable` for a download that fails, times out, is too large or is not an image.
 */
export async function storeImage(
  env: Pick<Bindings, "IMAGES" | "ENVIRONMENT">,
  origin: string,
  rawUrl: string,
  bodyPath: string,
): Promise<string> {
  const fail = (code: "invalid_body" | "image_unavailable", message: string) =>
    new ApiError(code, `${bodyPath}: ${message}`, [{ location: "body", path: bodyPath, message }]);

  const result = await safeFetch(rawUrl, { env, timeoutMs: IMAGE_TIMEOUT_MS, maxBytes: IMAGE_MAX_BYTES });
  if (!result.ok) {
    if (result.reason === "refused") throw fail("invalid_body", result.message);
    const why =
      result.reason === "too_large" ? `image is larger than ${IMAGE_MAX_BYTES} bytes` : result.message;
    throw fail("image_unavailable", `image could not be downloaded: ${why}`);
  }
  if (result.status < 200 || result.status > 299) {
    throw fail("image_unavailable", `image could not be downloaded: the server answered ${result.status}`);
  }
  const declared = declaredImageType(result.contentType);
  if (!declared) {
    throw fail(
      "image_unavailable",
      `must be a png, jpeg, webp, gif or avif image (Content-Type was ${result.contentType ?? "missing"})`,
    );
  }
  const sniffed = sniffImageType(result.bytes);
  if (sniffed !== declared) {
    throw fail("image_unavailable", `image content is not a valid ${IMAGE_TYPES[declared]} file`);
  }

  const file = `${await sha256Hex(result.bytes)}.${sniffed}`;
  await env.IMAGES.put(file, result.bytes, { httpMetadata: { contentType: IMAGE_TYPES[sniffed] } });
  return storedImageUrl(origin, file);
}

/** `storeImage` for a request: the served URL uses the request's own origin. */
export function storeImageFromUrl(c: Context<AppEnv>, rawUrl: string, bodyPath: string): Promise<string> {
  return storeImage(c.env, new URL(c.req.url).origin, rawUrl, bodyPath);
}

export const storedImageUrl = (origin: string, file: string) => `${origin}/images/${file}`;

/** Whether `url` is a URL this service serves a stored image at (same origin, `/images/<sha256>.<ext>`). */
export function isStoredImageUrl(url: string, origin: string): boolean {
  const prefix = `${origin}/images/`;
  return url.startsWith(prefix) && IMAGE_FILE_PATTERN.test(url.slice(prefix.length));
}

export const contentTypeOf = (file: string) => IMAGE_TYPES[file.split(".").pop() as ImageExtension];

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
