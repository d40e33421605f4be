import { beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_PATH } from "../../src/docs/docs.routes.ts";
import { api, send as sendRequest } from "../support/api.ts";
import { KEYS } from "../support/keys.ts";

/**
 * A write route that declares no body (a cancel, a delete) still runs the body checks in the order
 * of checks: 415 for a body that is not JSON, 413 over 1 MiB, 400 for anything but an empty JSON
 * object, all before the 404 of an unknown resource. Every such route of the OpenAPI document is
 * tried on an id no resource has.
 */

interface Operation {
  method: string;
  path: string;
  parameters?: { in: string; name: string; schema: { type: string } }[];
  responses: Record<string, unknown>;
}

let bodyless: Operation[] = [];

beforeAll(async () => {
  const doc = (await api(OPENAPI_PATH, { key: null })).json;
  bodyless = Object.entries(
    doc.paths as Record<string, Record<string, Operation & { requestBody?: unknown }>>,
  )
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ ...op, method, path })))
    .filter((op) => op.method !== "get" && !("requestBody" in op));
});

/** The operation's path on ids no resource has. */
const unknownPath = (op: Operation) =>
  op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = op.parameters?.find((p) => p.in === "path" && p.name === name);
    return param?.schema.type === "integer" ? "987654321" : crypto.randomUUID();
  });

const send = (op: Operation, body?: string, contentType = "application/json") =>
  api(unknownPath(op), {
    method: op.method.toUpperCase(),
    ...(body === undefined ? {} : { body, headers: { "content-type": contentType } }),
  });

describe("write routes without a declared body", () => {
  it("are the cancel and delete routes (the list this suite covers)", () => {
    expect(bodyless.map((op) => `${op.method} ${op.path}`).sort()).toEqual([
      "delete /api/v1/price-lists/{id}/variant-prices",
      "delete /api/v1/webhooks/{id}",
      "post /api/v1/jobs/{id}/cancel",
    ]);
  });

  it("answer 415 for a body that is not JSON, before the 404 of an unknown id", async () => {
    for (const op of bodyless) {
      const res = await send(op, "x", "text/plain");
      expect(res.status, `${op.method} ${op.path}`).toBe(415);
      expect(res.json.code).toBe("unsupported_media_type");
    }
  });

  it("answer 413 for a body over 1 MiB, before the 404 of an unknown id", async () => {
    for (const op of bodyless) {
      const res = await send(op, JSON.stringify({ x: "y".repeat(1.1 * 1024 * 1024) }));
      expect(res.status, `${op.method} ${op.path}`).toBe(413);
      expect(res.json.code).toBe("payload_too_large");
    }
  });

  it("answer 400 for a JSON body other than an empty object, before the 404 of an unknown id", async () => {
    for (const op of bodyless) {
      for (const body of ['{"x":1}', "[]", "{"]) {
        const res = await send(op, body);
        expect(res.status, `${op.method} ${op.path} ${body}`).toBe(400);
        expect(res.json.code).toBe("invalid_body");
      }
    }
  });

  it("reach the handler with no body, an empty body or {} (404 for the unknown id)", async () => {
    for (const op of bodyless) {
      for (const body of [undefined, "", "{}"]) {
        const res = await send(op, body);
        expect(res.status, `${op.method} ${op.path} ${body}`).toBe(404);
      }
    }
  });

  it("take a body stream of no bytes and no Content-Type as no body (a bodiless POST through a proxy)", async () => {
    for (const op of bodyless) {
      for (const chunks of [[], [new Uint8Array(0)]]) {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        });
        const request = new Request(`https://api.test${unknownPath(op)}`, {
          method: op.method.toUpperCase(),
          headers: { authorization: `Bearer ${KEYS.all}` },
          body,
        });
        const res = await sendRequest(request);
        expect(res.status, `${op.method} ${op.path}`).toBe(404);
      }
    }
  });

  it("answer 415 for a body stream of bytes without a Content-Type", async () => {
    for (const op of bodyless) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("x"));
          controller.close();
        },
      });
      const request = new Request(`https://api.test${unknownPath(op)}`, {
        method: op.method.toUpperCase(),
        headers: { authorization: `Bearer ${KEYS.all}` },
        body,
      });
      expect((await sendRequest(request)).status, `${op.method} ${op.path}`).toBe(415);
    }
  });

  it("document their 413 and 415 answers", () => {
    for (const op of bodyless)
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["413", "415"]));
  });
});
