import type { Context } from "hono";
import type { AppEnv, Bindings } from "../env.ts";
import { safeFetch } from "../http/outbound-guard.ts";
import { ApiError } from "../http/problem.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { declaredImageType, IMAGE_TYPES, type ImageExtension, sniffImageType } from "./sniff.ts";

export const IMAGE_TIMEOUT_MS = 5_000;
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** `<sha256 hex>.<ext>`: the R2 key and the last path segment of the served URL. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{64}\.(png|jpg|webp|gif|avif)$/;

/**
 * Downloads a client-supplied image URL through the outbound guard, checks it is png, jpeg, webp,
 * gif or avif (declared type and magic bytes agree), stores it in R2 under its SHA-256 and returns
 * the object key (`<sha256>.<ext>`), which is what a row stores. Throws 400 `invalid_body` for a
 * URL the guard refuses and 400 `image_unavailable` for a download that fails, times out, is too
 * large or is not an image.
 */
export async function storeImage(
  env: Pick<Bindings, "IMAGES" | "ENVIRONMENT">,
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
  return file;
}

/**
 * The origin stored images are served at: `PUBLIC_BASE_URL` when configured (its origin; a
 * deployment behind a custom domain or proxy pins it there), otherwise the origin the request
 * reached. Only rendering uses it: rows store the object key, never an origin, so nothing a
 * request's `Host` says is ever stored, and a new domain needs no data migration.
 */
export function publicOrigin(env: Pick<Bindings, "PUBLIC_BASE_URL">, requestUrl: string): string {
  if (!env.PUBLIC_BASE_URL) return new URL(requestUrl).origin;
  const configured = URL.parse(env.PUBLIC_BASE_URL);
  if (!configured || (configured.protocol !== "https:" && configured.protocol !== "http:")) {
    throw new Error(
      `PUBLIC_BASE_URL must be an absolute http(s) URL, got ${JSON.stringify(env.PUBLIC_BASE_URL)}`,
    );
  }
  return configured.origin;
}

const storedImageUrl = (origin: string, file: string) => `${origin}/images/${file}`;

/** The object key of `url` when `origin` serves a stored image there (`<origin>/images/<key>`), else null. */
export function ownImageFile(url: string, origin: string): string | null {
  const prefix = `${origin}/images/`;
  const file = url.startsWith(prefix) ? url.slice(prefix.length) : "";
  return IMAGE_FILE_PATTERN.test(file) ? file : null;
}

/**
 * The object key a stored `image_url` column holds. Rows written before keys were stored hold the
 * full URL they were served at (`<any origin>/images/<key>`): its last segment is the key.
 */
export function storedImageFile(stored: string): string | null {
  const file = stored.slice(stored.lastIndexOf("/") + 1);
  return IMAGE_FILE_PATTERN.test(file) ? file : null;
}

/** The `image_url` a response shows for a stored column value: always on the public origin. */
export function renderImageUrl(c: Context<AppEnv>, stored: string | null): string | null {
  if (stored === null) return null;
  const file = storedImageFile(stored);
  return file === null ? stored : storedImageUrl(publicOrigin(c.env, c.req.url), file);
}

export const contentTypeOf = (file: string) => IMAGE_TYPES[file.split(".").pop() as ImageExtension];
