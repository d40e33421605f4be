import type { Context } from "hono";
import type { AppEnv, Bindings } from "../env.ts";
import { safeFetch } from "../http/outbound-guard.ts";
import { ApiError } from "../http/problem.ts";
import { log } from "../lib/log.ts";
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

/** Logged (once per isolate) when an image URL is rendered without a configured public origin. */
export const UNCONFIGURED_ORIGIN_EVENT = "public_origin.unconfigured";
let unconfiguredLogged = false;

/**
 * The origin stored images are served at: the origin of `PUBLIC_BASE_URL`, which every way of
 * running the service sets (`npm run dev` its own address, `npm run deploy` the custom domain or the
 * workers.dev address). No request header (`Host`, `X-Forwarded-Host`, `Forwarded`) ever changes
 * it: an answer built on the request's Host would be cached and served to every storefront. Null
 * when none is configured (a bare `wrangler dev` or `wrangler deploy`): image URLs are then
 * root-relative, health reports `public_origin: null`, and an error is logged. Only rendering uses
 * it: rows store the object key, never an origin, so a new domain needs no data migration.
 */
export function publicOrigin(env: Pick<Bindings, "PUBLIC_BASE_URL">): string | null {
  if (!env.PUBLIC_BASE_URL) return null;
  const configured = URL.parse(env.PUBLIC_BASE_URL);
  if (!configured || (configured.protocol !== "https:" && configured.protocol !== "http:")) {
    throw new Error(
      `PUBLIC_BASE_URL must be an absolute http(s) URL, got ${JSON.stringify(env.PUBLIC_BASE_URL)}`,
    );
  }
  return configured.origin;
}

/** Logs that no public origin is configured: at every health check, else once per isolate. */
export function logUnconfiguredOrigin(always = false) {
  if (unconfiguredLogged && !always) return;
  unconfiguredLogged = true;
  log("error", UNCONFIGURED_ORIGIN_EVENT, {
    message:
      "PUBLIC_BASE_URL is not set: image URLs are root-relative (/images/<key>). Deploy with npm run deploy, or set it in wrangler.toml [vars].",
  });
}

/** The object key of `url` when `origin` serves a stored image there (`<origin>/images/<key>`), else null. */
export function ownImageFile(url: string, origin: string | null): string | null {
  if (origin === null) return null;
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

/**
 * The `image_url` a response shows for a stored column value: on the configured public origin, or
 * root-relative when none is configured (never on the origin the request names).
 */
export function renderImageUrl(c: Context<AppEnv>, stored: string | null): string | null {
  if (stored === null) return null;
  const file = storedImageFile(stored);
  if (file === null) return stored;
  const origin = publicOrigin(c.env);
  if (origin === null) logUnconfiguredOrigin();
  return `${origin ?? ""}/images/${file}`;
}

export const contentTypeOf = (file: string) => IMAGE_TYPES[file.split(".").pop() as ImageExtension];
