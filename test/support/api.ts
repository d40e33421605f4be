import { createExecutionContext, type env, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { app } from "../../src/app.ts";
import { KEYS, type KeyName } from "./keys.ts";

interface ApiOptions {
  method?: string;
  body?: unknown;
  /** The test key sent as a bearer token: `all` unless told; null sends none. */
  key?: KeyName | null;
  headers?: Record<string, string>;
  /** The origin the request is addressed to (its `Host`); `https://api.test` unless told. */
  origin?: string;
  /** Other bindings (a broken database, production settings): see `send`. */
  bindings?: typeof env;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: any;
  text: string;
}

/** Calls the Worker as a client would over HTTP: a JSON body, the test key, and the answer read. */
export async function api(path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? "all" : options.key;
  if (key) headers.set("authorization", `Bearer ${KEYS[key]}`);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body =
      typeof options.body === "string" || options.body instanceof Uint8Array
        ? options.body
        : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const request = new Request(`${options.origin ?? "https://api.test"}${path}`, {
    method: options.method ?? "GET",
    headers,
    body,
  });
  return send(request, options.bindings);
}

/**
 * Sends a request exactly as built to the Worker's own fetch handler and reads the answer. With
 * `bindings`, the app is called directly with those instead (its background work awaited).
 */
export async function send(request: Request, bindings?: typeof env): Promise<ApiResponse> {
  const response = bindings ? await callApp(request, bindings) : await exports.default.fetch(request);
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

async function callApp(request: Request, bindings: typeof env) {
  const ctx = createExecutionContext();
  const response = await app.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
