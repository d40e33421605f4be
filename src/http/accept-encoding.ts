/**
 * Whether `Accept-Encoding` takes gzip: named with a weight above 0, or, when gzip is not named,
 * `*` with a weight above 0 (RFC 9110 §12.5.3). No header: identity only.
 */
export function acceptsGzip(header: string | undefined): boolean {
  let star = false;
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name === "gzip" || name === "x-gzip") return accepted;
    if (name === "*") star = accepted;
  }
  return star;
}

/**
 * What the client itself sent in `Accept-Encoding`. Cloudflare hands a Worker `br, gzip` whatever
 * the client sent, and the client's own header in `cf.clientAcceptEncoding` (deployed, the edge
 * decompresses for a client that cannot; `wrangler dev` passes the same fields and decompresses
 * nothing, so the client's own header decides).
 */
export function clientAcceptEncoding(request: Request): string | undefined {
  const cf = request.cf as { clientAcceptEncoding?: unknown } | undefined;
  return typeof cf?.clientAcceptEncoding === "string"
    ? cf.clientAcceptEncoding
    : (request.headers.get("accept-encoding") ?? undefined);
}

/** `bytes` compressed as one gzip member. */
export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
