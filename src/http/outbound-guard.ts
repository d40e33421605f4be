import { describeError } from "../lib/errors.ts";
import { readCapped } from "./read-capped.ts";

/**
 * The one guard for outbound requests to client-supplied URLs (brand/category `image_url`
 * downloads, webhook deliveries). `https` only, except plain `http` to loopback
 * in development; private, link-local, metadata, unspecified, reserved and (outside development)
 * loopback targets are refused, on the first request and on every redirect hop.
 *
 * Hosts are judged as the WHATWG URL parser normalizes them: decimal, hex, octal and short IPv4
 * forms (`http://2130706433/`, `http://0x7f.1/`) already come out as dotted quads, and IPv6 as a
 * compressed lowercase literal (`[::ffff:a00:1]`). A host *name* that resolves to a private address
 * cannot be caught here (Workers have no DNS lookup); Cloudflare's own egress refuses those.
 */

type AddressClass =
  | "public"
  | "private"
  | "loopback"
  | "link-local"
  | "metadata"
  | "unspecified"
  | "reserved";

export type OutboundCheck = { ok: true; url: URL } | { ok: false; message: string };

const REFUSAL: Record<Exclude<AddressClass, "public">, string> = {
  private: "must not point to a private network address",
  loopback: "must not point to a loopback address",
  "link-local": "must not point to a link-local address",
  metadata: "must not point to a cloud metadata endpoint",
  unspecified: "must not point to an unspecified address",
  reserved: "must not point to a reserved or multicast address",
};

/** Checks one URL against the outbound rules; `env.ENVIRONMENT === "development"` relaxes loopback. */
export function checkOutboundUrl(raw: string, env: { ENVIRONMENT: string }): OutboundCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "must be an absolute https URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, message: "must use https" };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "must not include credentials" };
  }
  const hostClass = classifyHost(url.hostname);
  const development = env.ENVIRONMENT === "development";
  if (hostClass === "loopback" && development) return { ok: true, url };
  if (hostClass !== "public") return { ok: false, message: REFUSAL[hostClass] };
  if (url.protocol === "http:") {
    return {
      ok: false,
      message: development
        ? "must use https (plain http only reaches loopback in development)"
        : "must use https",
    };
  }
  return { ok: true, url };
}

const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Classifies a WHATWG-normalized `URL.hostname`. */
function classifyHost(hostname: string): AddressClass {
  if (hostname.startsWith("[") && hostname.endsWith("]")) {
    const groups = parseIpv6(hostname.slice(1, -1));
    return groups ? classifyIpv6(groups) : "reserved";
  }
  const v4 = parseIpv4(hostname);
  if (v4 !== null) return classifyIpv4(v4);
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  if (name === "") return "unspecified";
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (METADATA_HOSTS.has(name)) return "metadata";
  return "public";
}

const ipv4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** First match wins, so the metadata address comes before its link-local range. */
const IPV4_RANGES: [base: number, prefix: number, kind: Exclude<AddressClass, "public">][] = [
  [ipv4(169, 254, 169, 254), 32, "metadata"],
  [ipv4(0, 0, 0, 0), 8, "unspecified"],
  [ipv4(10, 0, 0, 0), 8, "private"],
  [ipv4(100, 64, 0, 0), 10, "private"], // carrier-grade NAT
  [ipv4(127, 0, 0, 0), 8, "loopback"],
  [ipv4(169, 254, 0, 0), 16, "link-local"],
  [ipv4(172, 16, 0, 0), 12, "private"],
  [ipv4(192, 0, 0, 0), 24, "reserved"], // IETF protocol assignments
  [ipv4(192, 168, 0, 0), 16, "private"],
  [ipv4(198, 18, 0, 0), 15, "reserved"], // benchmarking
  [ipv4(224, 0, 0, 0), 4, "reserved"], // multicast
  [ipv4(240, 0, 0, 0), 4, "reserved"], // reserved, broadcast
];

function parseIpv4(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return ipv4(a, b, c, d);
}

function classifyIpv4(address: number): AddressClass {
  for (const [base, prefix, kind] of IPV4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((address & mask) >>> 0 === base) return kind;
  }
  return "public";
}

/** Eight 16-bit groups, or null when the text is not an IPv6 literal. */
function parseIpv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (dotted?.[1] && dotted[2]) {
    const v4 = parseIpv4(dotted[2]);
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    s = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN)) : [];
  const head = parse(halves[0]);
  const rest = [...parse(halves[1]), ...tail];
  if (halves.length === 1) {
    const all = [...head, ...tail];
    return all.length === 8 && !all.some(Number.isNaN) ? all : null;
  }
  const missing = 8 - head.length - rest.length;
  if (missing < 1 || [...head, ...rest].some(Number.isNaN)) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest];
}

function classifyIpv6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => classifyIpv4(((hi << 16) | lo) >>> 0);
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0 && g6 === 0)
    return g7 === 0 ? "unspecified" : g7 === 1 ? "loopback" : "reserved";
  if (zeroPrefix && g5 === 0xffff) return embedded(g6, g7); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroPrefix && g5 === 0) return embedded(g6, g7); // IPv4-compatible ::a.b.c.d (deprecated)
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private"; // local-use NAT64
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if (
    g0 === 0xfd00 &&
    g1 === 0x0ec2 &&
    g2 === 0 &&
    g3 === 0 &&
    g4 === 0 &&
    g5 === 0 &&
    g6 === 0 &&
    g7 === 0x254
  ) {
    return "metadata"; // AWS IMDS over IPv6
  }
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return "reserved"; // multicast
  return "public";
}

type SafeFetchFailure = "refused" | "failed" | "timeout" | "too_large";

export type SafeFetchResult =
  | { ok: true; status: number; contentType: string | null; bytes: Uint8Array; url: URL; headers: Headers }
  | {
      ok: false;
      reason: SafeFetchFailure;
      message: string;
      /** The final response status, when one arrived (e.g. a body over `maxBytes`). */
      status?: number;
    };

export interface SafeFetchOptions {
  env: { ENVIRONMENT: string };
  /** Budget for the whole exchange: every hop and the body. */
  timeoutMs: number;
  maxBytes: number;
  /** Method, headers, body (string or bytes, so a 307/308 can resend it). `redirect`/`signal` are ignored. */
  init?: RequestInit;
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a client-supplied URL under the outbound rules. Never throws: the result says whether the
 * URL was refused (a client error in the URL itself, including a redirect to a refused target) or
 * the exchange failed, timed out or answered more than `maxBytes`. Any final status is `ok: true`.
 */
export async function safeFetch(raw: string | URL, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const { env, timeoutMs, maxBytes, init = {}, maxRedirects = 3 } = options;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body ?? null;
  const headers = new Headers(init.headers);
  let target = String(raw);
  try {
    for (let hop = 0; ; hop++) {
      const check = checkOutboundUrl(target, env);
      if (!check.ok) {
        const message = hop === 0 ? check.message : `redirects to a URL that ${check.message}`;
        return { ok: false, reason: "refused", message };
      }
      const response = await fetch(check.url, {
        method,
        headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel();
        if (hop >= maxRedirects) {
          return { ok: false, reason: "failed", message: `more than ${maxRedirects} redirects` };
        }
        const next = URL.parse(location, check.url);
        if (!next) return { ok: false, reason: "failed", message: "redirects to an invalid URL" };
        if (next.origin !== check.url.origin) {
          headers.delete("authorization");
          headers.delete("cookie");
        }
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && method === "POST")
        ) {
          method = "GET";
          body = null;
          headers.delete("content-type");
        }
        target = next.href;
        continue;
      }
      const read = await readLimited(response, maxBytes);
      if (!read) {
        return {
          ok: false,
          reason: "too_large",
          message: `answered more than ${maxBytes} bytes`,
          status: response.status,
        };
      }
      return {
        ok: true,
        status: response.status,
        contentType: response.headers.get("content-type"),
        bytes: read,
        url: check.url,
        headers: response.headers,
      };
    }
  } catch (err) {
    if (controller.signal.aborted) {
      return { ok: false, reason: "timeout", message: `did not answer within ${timeoutMs / 1000} s` };
    }
    return { ok: false, reason: "failed", message: `could not be fetched (${describeError(err)})` };
  } finally {
    clearTimeout(timer);
  }
}

/** The body's bytes, or null past `maxBytes` (checked on Content-Length first, then while streaming). */
async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  return readCapped(response.body, maxBytes);
}
