import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

/** 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * A real HTTP server on loopback standing in for the outside world (image hosts, webhook
 * receivers): the Worker under test fetches it over plain http, allowed in development.
 */
export default async function setup(project: TestProject) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/images/ok")) {
      res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    } else if (url.pathname.startsWith("/images/html")) {
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    } else if (url.pathname.startsWith("/images/slow")) {
      setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(PNG), 7000);
    } else if (url.pathname.startsWith("/images/huge")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.alloc(6 * 1024 * 1024));
    } else {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("fixtureOrigin", `http://127.0.0.1:${port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
