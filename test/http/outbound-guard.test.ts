import { describe, expect, inject, it } from "vitest";
import { checkOutboundUrl, safeFetch } from "../../src/http/outbound-guard.ts";

const PROD = { ENVIRONMENT: "production" };
const DEV = { ENVIRONMENT: "development" };

const refusal = (raw: string, env = PROD) => {
  const result = checkOutboundUrl(raw, env);
  return result.ok ? `allowed ${result.url.href}` : result.message;
};

const PRIVATE = "must not point to a private network address";
const LOOPBACK = "must not point to a loopback address";
const LINK_LOCAL = "must not point to a link-local address";
const METADATA = "must not point to a cloud metadata endpoint";
const UNSPECIFIED = "must not point to an unspecified address";
const RESERVED = "must not point to a reserved or multicast address";

/** Refused in both modes, with the same message. */
const ALWAYS_REFUSED: [string, string][] = [
  ["https://10.0.0.1/x.png", PRIVATE],
  ["https://10.255.255.255/", PRIVATE],
  ["https://172.16.0.1/", PRIVATE],
  ["https://172.31.255.255/", PRIVATE],
  ["https://192.168.1.10/", PRIVATE],
  ["https://100.64.0.1/", PRIVATE],
  ["https://100.127.255.254/", PRIVATE],
  ["https://[fc00::1]/", PRIVATE],
  ["https://[fd12:3456:789a::1]/", PRIVATE],
  ["https://169.254.1.1/", LINK_LOCAL],
  ["https://[fe80::1]/", LINK_LOCAL],
  ["https://[febf:ffff::1]/", LINK_LOCAL],
  ["https://169.254.169.254/latest/meta-data/", METADATA],
  ["http://169.254.169.254/latest/meta-data/", METADATA],
  ["https://[fd00:ec2::254]/latest/", METADATA],
  ["https://metadata.google.internal/computeMetadata/v1/", METADATA],
  ["https://METADATA.Google.Internal./", METADATA],
  ["https://0.0.0.0/", UNSPECIFIED],
  ["http://0/", UNSPECIFIED],
  ["https://[::]/", UNSPECIFIED],
  ["https://224.0.0.1/", RESERVED],
  ["https://255.255.255.255/", RESERVED],
  // IPv4 spelled in decimal, hex, octal and short forms: the URL parser normalizes them.
  ["https://167772161/", PRIVATE],
  ["https://0xa000001/", PRIVATE],
  ["https://0xa.0.0.1/", PRIVATE],
  ["https://012.0.0.1/", PRIVATE],
  ["https://10.1/", PRIVATE],
  ["https://192.168.257/", PRIVATE],
  ["https://2852039166/", METADATA],
  ["https://0xa9.0xfe.0xa9.0xfe/", METADATA],
  ["https://10.0.0.1./", PRIVATE],
  // IPv4 inside IPv6: mapped, compatible, NAT64 and 6to4.
  ["https://[::ffff:a00:1]/", PRIVATE],
  ["https://[::ffff:10.0.0.1]/", PRIVATE],
  ["https://[0:0:0:0:0:ffff:c0a8:101]/", PRIVATE],
  ["https://[::ffff:169.254.169.254]/", METADATA],
  ["https://[64:ff9b::a9fe:a9fe]/", METADATA],
  ["https://[::10.0.0.1]/", PRIVATE],
  ["https://[2002:a00:1::1]/", PRIVATE],
  // Scheme and credentials.
  ["ftp://example.com/x.png", "must use https"],
  ["file:///etc/passwd", "must use https"],
  ["javascript:alert(1)", "must use https"],
  ["not a url", "must be an absolute https URL"],
  ["/relative/path.png", "must be an absolute https URL"],
  ["https://user:secret@example.com/x.png", "must not include credentials"],
  ["https://user@example.com/x.png", "must not include credentials"],
  ["https://:secret@example.com/x.png", "must not include credentials"],
];

const LOOPBACK_URLS = [
  "http://127.0.0.1:8787/x.png",
  "https://127.255.255.254/",
  "http://[::1]:8080/",
  "http://localhost:3000/",
  "https://LOCALHOST./",
  "http://images.localhost/",
  "http://%6cocalhost/",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:7f00:1]/",
];

describe("checkOutboundUrl", () => {
  describe.each([
    ["production", PROD],
    ["development", DEV],
  ])("in %s", (_mode, env) => {
    it.each(ALWAYS_REFUSED)("refuses %s", (raw, message) => {
      expect(refusal(raw, env)).toBe(message);
    });

    it.each([
      "https://example.com/logo.png",
      "https://cdn.example.com:8443/a/b.webp?v=1#frag",
      "https://93.184.216.34/x.png",
      "https://1.1.1.1/",
      "https://172.32.0.1/",
      "https://172.15.255.255/",
      "https://100.128.0.1/",
      "https://169.253.255.255/",
      "https://192.169.0.1/",
      "https://[2606:4700:4700::1111]/",
      "https://[::ffff:8.8.8.8]/",
      "https://metadata.google.internal.example.com/",
      "https://localhost.example.com/",
    ])("allows %s", (raw) => {
      expect(refusal(raw, env)).toMatch(/^allowed /);
    });
  });

  it.each(LOOPBACK_URLS)("refuses loopback %s in production", (raw) => {
    expect(refusal(raw, PROD)).toBe(LOOPBACK);
  });

  it.each(LOOPBACK_URLS)("allows loopback %s in development", (raw) => {
    expect(refusal(raw, DEV)).toMatch(/^allowed /);
  });

  it("normalizes IPv4 spellings to dotted quads", () => {
    for (const raw of ["http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/"]) {
      const result = checkOutboundUrl(raw, DEV);
      expect(result.ok && result.url.hostname).toBe("127.0.0.1");
    }
    expect(new URL("https://[::ffff:10.0.0.1]/").hostname).toBe("[::ffff:a00:1]");
  });

  it("allows plain http only to loopback, and only in development", () => {
    expect(refusal("http://example.com/x.png", PROD)).toBe("must use https");
    expect(refusal("http://example.com/x.png", DEV)).toBe(
      "must use https (plain http only reaches loopback in development)",
    );
    expect(refusal("http://93.184.216.34/x.png", DEV)).toMatch(/^must use https/);
    expect(refusal("http://127.0.0.1/x.png", DEV)).toBe("allowed http://127.0.0.1/x.png");
  });

  it("refuses credentials even on loopback in development", () => {
    expect(refusal("http://user:pass@127.0.0.1:8787/x.png", DEV)).toBe("must not include credentials");
  });

  it("refuses malformed IPv4 and IPv6 literals at parse time", () => {
    expect(refusal("https://1.2.3.256/")).toBe("must be an absolute https URL");
    expect(refusal("https://[::1::2]/")).toBe("must be an absolute https URL");
  });
});

describe("safeFetch", () => {
  const origin = inject("fixtureOrigin");
  const options = { env: DEV, timeoutMs: 5_000, maxBytes: 1024 * 1024 };

  it("returns the final status, content type and bytes, following a relative redirect", async () => {
    const result = await safeFetch(`${origin}/images/redirect-ok`, options);
    expect(result).toMatchObject({ ok: true, status: 200, contentType: "image/png" });
    expect(result.ok && result.url.pathname).toBe("/images/ok");
    expect(result.ok && result.bytes.byteLength).toBeGreaterThan(8);
  });

  it("reports a non-2xx answer as a status, not a failure", async () => {
    const result = await safeFetch(`${origin}/nothing-here`, options);
    expect(result).toMatchObject({ ok: true, status: 404 });
  });

  it("refuses a redirect to a refused target", async () => {
    const result = await safeFetch(`${origin}/images/redirect-private`, options);
    expect(result).toEqual({
      ok: false,
      reason: "refused",
      message: `redirects to a URL that ${PRIVATE}`,
    });
  });

  it("refuses the very first URL in production (loopback)", async () => {
    const result = await safeFetch(`${origin}/images/ok`, { ...options, env: PROD });
    expect(result).toEqual({ ok: false, reason: "refused", message: LOOPBACK });
  });

  it("fails after at most 3 redirects", async () => {
    const result = await safeFetch(`${origin}/images/redirect-loop`, options);
    expect(result).toEqual({ ok: false, reason: "failed", message: "more than 3 redirects" });
  });

  it("stops reading past maxBytes, by Content-Length or while streaming", async () => {
    const declared = await safeFetch(`${origin}/images/huge`, options);
    expect(declared).toMatchObject({ ok: false, reason: "too_large", status: 200 });
    const streamed = await safeFetch(`${origin}/images/streamed-huge`, options);
    expect(streamed).toMatchObject({ ok: false, reason: "too_large", status: 200 });
  });

  it("times out", async () => {
    const started = Date.now();
    const result = await safeFetch(`${origin}/images/slow`, { ...options, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("reports a connection failure as failed", async () => {
    const result = await safeFetch("http://127.0.0.1:1/", options);
    expect(result).toMatchObject({ ok: false, reason: "failed" });
  });
});
