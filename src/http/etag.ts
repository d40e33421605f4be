import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { sha256 } from "../lib/sha256.ts";

const encoder = new TextEncoder();

/** `application/json` and `application/<x>+json` (problem JSON), not `application/x-ndjson`. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Weak ETag on successful GET answers; a matching If-None-Match (weak comparison) gives 304. The
 * tag is the SHA-256 of the body's bytes. A handler's `c.json` is serialised and encoded once here,
 * and the tag hashes those very bytes; any other JSON answer is read back from a clone.
 */
export const etag: MiddlewareHandler<AppEnv> = async (c, next) => {
  // HEAD answers GET's headers (Hono runs the GET route and drops the body).
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
  const encoded = encodeJsonOnce(c);
  await next();
  if (c.res.status !== 200) return;
  // JSON answers only: a streamed file (an export's JSONL) is not read whole to hash it.
  if (!JSON_TYPE.test(c.res.headers.get("content-type") ?? "")) return;
  const phases = c.get("phases");
  const left = phases.enter("etag");
  const body = encoded.response === c.res ? encoded.bytes : new Uint8Array(await c.res.clone().arrayBuffer());
  const tag = `W/"${base64url(sha256(body as Uint8Array).subarray(0, 18))}"`;
  phases.enter(left);
  c.res.headers.set("ETag", tag);
  c.res = conditional(c.req.header("if-none-match"), c.res);
};

/**
 * The answer to a request carrying `If-None-Match`: 304 without a body when one of its tags
 * matches the answer's `ETag` (weak comparison), else the answer itself. Also used by the edge
 * cache for the answers it serves.
 */
export function conditional(ifNoneMatch: string | undefined, response: Response): Response {
  const tag = response.headers.get("etag");
  if (!ifNoneMatch || !tag || response.status !== 200 || !matches(ifNoneMatch, tag)) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(null, { status: 304, headers });
}

/**
 * Replaces this request's `c.json` with one that builds the same response (same status, headers,
 * `Content-Type: application/json`) from UTF-8 bytes it keeps, so the ETag needs neither a clone of
 * the body nor a second encoding. Time spent serialising goes to the `json` phase.
 */
function encodeJsonOnce(c: Context<AppEnv>) {
  const kept: { response?: Response; bytes?: Uint8Array } = {};
  // `c.json(object, status | init, headers)` is `c.body(JSON.stringify(object), …)` with that type.
  const body = c.body as unknown as (data: Uint8Array, arg: unknown, headers: object) => Response;
  const json = (object: unknown, arg?: unknown, headers?: Record<string, string | string[]>) => {
    const phases = c.get("phases");
    const left = phases.enter("json");
    const bytes = utf8(JSON.stringify(object));
    const response = body(bytes, arg, { "Content-Type": "application/json", ...headers });
    kept.response = response;
    kept.bytes = bytes;
    phases.enter(left);
    return response;
  };
  c.json = json as unknown as typeof c.json;
  return kept;
}

/**
 * UTF-8 of a string. `encodeInto` a buffer sized for mostly-ASCII text takes about half the time of
 * `encode` on a large body; text that does not fit (much non-ASCII) is encoded again with `encode`.
 */
function utf8(text: string): Uint8Array {
  const buffer = new Uint8Array(text.length + (text.length >> 2) + 16);
  const { read, written } = encoder.encodeInto(text, buffer);
  return read === text.length ? buffer.subarray(0, written) : encoder.encode(text);
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

function matches(header: string, tag: string) {
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => opaque(candidate) === opaque(tag));
}

function base64url(bytes: Uint8Array) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
