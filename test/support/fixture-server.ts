import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

/** 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The start of a JFIF file: enough for magic-byte checks. */
const JPEG = Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex");

/**
 * A real HTTP server on loopback standing in for the outside world (image hosts, webhook
 * receivers): the Worker under test fetches it over plain http, allowed in development.
 */
export default async function setup(project: TestProject) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/webhooks/")) {
      webhookReceiver(req, res, url);
    } else if (url.pathname.startsWith("/images/ok")) {
      res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    } else if (url.pathname.startsWith("/images/html")) {
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    } else if (url.pathname.startsWith("/images/slow")) {
      setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(PNG), 7000);
    } else if (url.pathname.startsWith("/images/huge")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.alloc(6 * 1024 * 1024));
    } else if (url.pathname === "/images/streamed-huge") {
      // No Content-Length: 6 MiB in chunks, so only counting the streamed bytes catches it.
      res.writeHead(200, { "content-type": "image/png" });
      res.write(PNG);
      for (let i = 0; i < 96; i++) res.write(Buffer.alloc(64 * 1024));
      res.end();
    } else if (url.pathname === "/images/jpeg") {
      res.writeHead(200, { "content-type": "image/jpeg; charset=binary" }).end(JPEG);
    } else if (url.pathname === "/images/svg") {
      res
        .writeHead(200, { "content-type": "image/svg+xml" })
        .end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    } else if (url.pathname === "/images/mislabeled") {
      res.writeHead(200, { "content-type": "image/png" }).end("GIF89a not really a png");
    } else if (url.pathname === "/images/redirect-ok") {
      res.writeHead(302, { location: "/images/ok" }).end();
    } else if (url.pathname === "/images/redirect-private") {
      res.writeHead(302, { location: "https://10.0.0.1/image.png" }).end();
    } else if (url.pathname === "/images/redirect-metadata") {
      res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else if (url.pathname === "/images/redirect-loop") {
      res.writeHead(307, { location: "/images/redirect-loop" }).end();
    } else {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("fixtureOrigin", `http://127.0.0.1:${port}`);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // the hanging webhook receiver never answers on its own
    });
}

interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How long the `slow` receiver takes to answer: a serverless receiver's cold start, past one second. */
const SLOW_RECEIVER_MS = 2_500;

/** Webhook deliveries received, by token (the last path segment); tests read them back over GET. */
const received = new Map<string, ReceivedDelivery[]>();

/**
 * Webhook receivers: `POST /webhooks/<behaviour>/<token>` records the delivery under the token,
 * then answers as the behaviour says; `GET /webhooks/received/<token>` returns what was recorded.
 *   ok: 200 · flaky: 500 the first time, then 200 · failing: always 500 · hang: no answer for 30 s
 *   hang-once: no answer for 30 s the first time, then 200 · slow: 200 after SLOW_RECEIVER_MS
 *   huge: 200 with 4 MiB streamed (no Content-Length) · redirect-metadata: 302 to the metadata address
 *   redirect-ok: 307 to the `ok` receiver under `<token>-redirected`
 */
function webhookReceiver(req: IncomingMessage, res: ServerResponse, url: URL) {
  const [, , behaviour = "", token = ""] = url.pathname.split("/");
  if (req.method === "GET" && behaviour === "received") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(token) ?? []));
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const list = received.get(token) ?? [];
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    );
    list.push({ path: url.pathname, headers, body: Buffer.concat(chunks).toString("utf8") });
    received.set(token, list);
    if (behaviour === "ok") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    } else if (behaviour === "flaky") {
      res.writeHead(list.length === 1 ? 500 : 200).end(list.length === 1 ? "try again" : "ok");
    } else if (behaviour === "failing") {
      res.writeHead(500).end("still broken");
    } else if (behaviour === "hang" || (behaviour === "hang-once" && list.length === 1)) {
      setTimeout(() => res.writeHead(200).end("too late"), 30_000).unref();
    } else if (behaviour === "hang-once") {
      res.writeHead(200).end("ok");
    } else if (behaviour === "slow") {
      setTimeout(() => res.writeHead(200).end("ok, slowly"), SLOW_RECEIVER_MS).unref();
    } else if (behaviour === "huge") {
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 64; i++) res.write(Buffer.alloc(64 * 1024, 120));
      res.end();
    } else if (behaviour === "redirect-metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else if (behaviour === "redirect-ok") {
      res.writeHead(307, { location: `/webhooks/ok/${token}-redirected` }).end();
    } else {
      res.writeHead(404).end("unknown receiver");
    }
  });
}
