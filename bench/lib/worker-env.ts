import { timingSafeEqual } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { recordingD1 } from "./d1-shim.ts";

/** The bundle's default export, as workerd calls it. */
export interface WorkerModule {
  fetch(request: Request, env: Record<string, unknown>, ctx: unknown): Promise<Response>;
  queue(batch: unknown, env: Record<string, unknown>, ctx: unknown): Promise<void>;
}

/** The workerd extensions of web APIs the service uses, which Node lacks. */
function polyfillWorkerd() {
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual !== "function") {
    const bytes = (v: ArrayBufferView) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    subtle.timingSafeEqual = (a, b) => timingSafeEqual(bytes(a), bytes(b));
  }
}

export async function loadWorker(bundle: string): Promise<WorkerModule> {
  polyfillWorkerd();
  // The Worker's info and warn log lines (src/lib/log.ts) would go to stdout, where the child
  // processes of the benchmark hand their JSON results back: they are built (their cost counts)
  // and dropped. Errors still reach stderr.
  console.log = () => {};
  console.warn = () => {};
  return ((await import(pathToFileURL(bundle).href)) as { default: WorkerModule }).default;
}

/**
 * Bindings for running the Worker in Node: D1 over node:sqlite (recording), R2 and the queues in
 * memory (sent messages wait in `queued` until the caller delivers them).
 */
export function inProcessEnv(db: DatabaseSync) {
  const recorder = recordingD1(db);
  const objects = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const queued: unknown[] = [];
  const uploads = new Map<string, Map<number, Uint8Array>>();
  const multipart = (key: string, uploadId: string) => ({
    key,
    uploadId,
    uploadPart: async (partNumber: number, value: Uint8Array) => {
      const parts = uploads.get(uploadId) ?? new Map<number, Uint8Array>();
      parts.set(partNumber, value.slice());
      uploads.set(uploadId, parts);
      return { partNumber, etag: String(partNumber) };
    },
    complete: async (parts: { partNumber: number }[]) => {
      const stored = uploads.get(uploadId) ?? new Map<number, Uint8Array>();
      const chunks = parts.map((p) => stored.get(p.partNumber) ?? new Uint8Array());
      const joined = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        joined.set(c, at);
        at += c.length;
      }
      objects.set(key, joined);
      uploads.delete(uploadId);
      return { key };
    },
    abort: async () => {
      uploads.delete(uploadId);
    },
  });
  const pending: Promise<unknown>[] = [];
  const bucket = {
    put: async (key: string, value: string | Uint8Array) => {
      objects.set(key, typeof value === "string" ? encoder.encode(value) : value.slice());
      return { key };
    },
    get: async (key: string, options?: { range?: { offset: number; length: number } }) => {
      const stored = objects.get(key);
      if (stored === undefined) return null;
      const range = options?.range;
      const bytes = range ? stored.subarray(range.offset, range.offset + range.length) : stored;
      return {
        size: bytes.length,
        text: async () => decoder.decode(bytes),
        json: async () => JSON.parse(decoder.decode(bytes)),
        arrayBuffer: async () => bytes.slice().buffer,
      };
    },
    delete: async (keys: string | string[]) => {
      for (const k of Array.isArray(keys) ? keys : [keys]) objects.delete(k);
    },
    head: async (key: string) => (objects.has(key) ? { key, size: objects.get(key)?.length ?? 0 } : null),
    // Multipart uploads (an export's file): parts kept apart until `complete` joins them.
    createMultipartUpload: async (key: string) => multipart(key, crypto.randomUUID()),
    resumeMultipartUpload: (key: string, uploadId: string) => multipart(key, uploadId),
    list: async () => ({ objects: [], truncated: false }),
  };
  const queue = {
    send: async (message: unknown) => {
      queued.push(message);
    },
    sendBatch: async (messages: { body: unknown }[]) => {
      for (const m of messages) queued.push(m.body);
    },
  };
  return {
    recorder,
    queued,
    env: {
      DB: recorder.d1,
      ENVIRONMENT: "development",
      PAYLOADS: bucket,
      IMAGES: bucket,
      JOBS_QUEUE: queue,
      WEBHOOKS_QUEUE: { send: async () => {}, sendBatch: async () => {} },
    },
    ctx: { waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} },
    /** Settles what handlers passed to waitUntil. */
    settle: () => Promise.all(pending.splice(0, pending.length)),
  };
}
