import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

/** Weak ETag on successful GET answers; a matching If-None-Match (weak comparison) gives 304. */
export const etag: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== "GET" || c.res.status !== 200) return;
  const type = c.res.headers.get("content-type") ?? "";
  if (!type.includes("json")) return;
  const body = await c.res.clone().arrayBuffer();
  const digest = await crypto.subtle.digest("SHA-256", body);
  const tag = `W/"${base64url(new Uint8Array(digest).slice(0, 18))}"`;
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch && matches(ifNoneMatch, tag)) {
    const headers = new Headers(c.res.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    headers.set("ETag", tag);
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  c.res.headers.set("ETag", tag);
};

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
