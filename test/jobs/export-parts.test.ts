import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { processDeadLetter, processJobMessage } from "../../src/async/bulk/consumer.ts";
import type { JobMessage } from "../../src/async/bulk/types.ts";
import { PART_BYTES, PARTS_PER_MESSAGE } from "../../src/async/exports/consumer.ts";
import { resultKey } from "../../src/async/exports/keys.ts";
import { SUPPORTED_LOCALES } from "../../src/lib/locales.ts";
import { JOB_PIPELINE } from "../../src/queues.ts";
import { api } from "../support/api.ts";
import { capturingEnv } from "../support/jobs.ts";
import { KEYS } from "../support/keys.ts";
import { runScheduled } from "../support/queues.ts";

/**
 * An export of a little over two messages' parts: 900 products with a 3,000-character text of
 * random hex digits in each of the 14 locales (about 44 KB a record, which gzip takes to about half:
 * a part holds about 240 records, a page about 120), the only products of this file's storage. The
 * second message reads the last records but fills its second part with them: the end of the file
 * goes to a third message. Its messages are delivered one by one.
 */
const FIRST = 7_000_001;
const PRODUCTS = 900;

beforeAll(async () => {
  const locales = JSON.stringify(SUPPORTED_LOCALES);
  await env.DB.batch(
    [
      `WITH RECURSIVE n(i) AS (SELECT ${FIRST} UNION ALL SELECT i + 1 FROM n WHERE i < ${FIRST + PRODUCTS - 1})
       INSERT INTO products (id, internal_id, product_structure, status, product_kind, stock_management, tax_category)
       SELECT i, 'BIG-' || i, 'simple', 'published', 'physical', 'default', 'standard' FROM n`,
      `INSERT INTO product_translations (product_id, locale, name, slug_base, slug, body_html)
       SELECT p.id, l.value, 'Big ' || p.id, 'big-' || p.id, 'big-' || p.id, hex(randomblob(1500))
       FROM products p, json_each('${locales}') AS l WHERE p.id >= ${FIRST}`,
      `INSERT INTO variants (id, product_id, internal_id, sku, status) SELECT id, id, 'BIGV-' || id, 'BIGSKU-' || id, 'published' FROM products WHERE id >= ${FIRST}`,
    ].map((q) => env.DB.prepare(q)),
  );
});

/** Starts a products export of the big products through the route, its first message captured. */
async function start() {
  const { testEnv, sent } = capturingEnv();
  const res = await api("/api/v1/products/export", {
    method: "POST",
    body: {},
    bindings: testEnv,
  });
  expect(res.status).toBe(202);
  const jobId = res.json[0].job_id as string;
  sent.length = 0;
  const deliver = async (message: JobMessage) => {
    await processJobMessage(testEnv, message, JOB_PIPELINE);
    return sent.shift();
  };
  return { jobId, deliver, sent };
}

const exportRow = (jobId: string) =>
  env.DB.prepare("SELECT carry_key, parts, bytes, text_bytes, completed_at FROM job_exports WHERE job_id = ?")
    .bind(jobId)
    .first<{
      carry_key: string | null;
      parts: string;
      bytes: number;
      text_bytes: number;
      completed_at: string | null;
    }>();

/** The text of gzip bytes (one member). */
const gunzip = (bytes: ArrayBuffer | undefined) =>
  new Response(
    new Blob([bytes ?? new ArrayBuffer(0)]).stream().pipeThrough(new DecompressionStream("gzip")),
  ).text();

describe("an export larger than a part", () => {
  it("writes equal parts across messages, carrying the bytes past each message's last part to the next", async () => {
    const { jobId, deliver } = await start();
    const second = await deliver({ jobId, chunk: 0 });
    expect(second).toEqual({ jobId, chunk: 1 });
    const carried = (await exportRow(jobId))?.carry_key;
    expect(carried).toBeTruthy();
    // A second delivery of the first message finds its ledger row: nothing is written twice.
    expect(await deliver({ jobId, chunk: 0 })).toBeUndefined();
    expect(await deliver({ jobId, chunk: 1 })).toEqual({ jobId, chunk: 2 });
    // Every record is written, but no part number of the message is left for the file's end.
    const written = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(written.status).toBe("running");
    expect(written.summary.processed_records).toBe(PRODUCTS);
    expect((await exportRow(jobId))?.completed_at).toBeNull();
    expect(await deliver({ jobId, chunk: 2 })).toBeUndefined();
    const job = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(job.status).toBe("done");
    expect(job.summary).toMatchObject({ total_records: PRODUCTS, processed_records: PRODUCTS });
    const row = await exportRow(jobId);
    const file = await env.PAYLOADS.get(resultKey(jobId));
    expect(file?.size).toBe(row?.bytes);
    expect(file?.size).toBeGreaterThan(PART_BYTES * PARTS_PER_MESSAGE);
    expect(JSON.parse(row?.parts ?? "[]")).toHaveLength(Math.ceil((file?.size ?? 0) / PART_BYTES));
    expect(await env.PAYLOADS.head(carried ?? "")).toBeNull();
    const text = await gunzip(await file?.arrayBuffer());
    const lines = text.split("\n").filter((l) => l !== "");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: PRODUCTS }, (_, i) => FIRST + i));
    expect(new TextEncoder().encode(text).length).toBe(row?.text_bytes);
    // One gzip member (DecompressionStream refuses bytes after the first), served as stored to a
    // client taking gzip and as the same text to any other.
    const raw = await app.fetch(
      new Request(`https://api.test/api/v1/jobs/${jobId}/result`, {
        headers: { authorization: `Bearer ${KEYS.all}`, "accept-encoding": "gzip" },
      }),
      env,
      createExecutionContext(),
    );
    expect(raw.headers.get("content-encoding")).toBe("gzip");
    expect(raw.headers.get("content-length")).toBe(String(file?.size));
    expect(await gunzip(await raw.arrayBuffer())).toBe(text);
    const plain = await api(`/api/v1/jobs/${jobId}/result`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-length")).toBe(String(row?.text_bytes));
    expect(plain.text).toBe(text);
    // Behind Cloudflare (and wrangler dev) the Worker sees `Accept-Encoding: br, gzip` whatever the
    // client sent; what it sent is `cf.clientAcceptEncoding`.
    const edge = await app.fetch(
      new Request(`https://api.test/api/v1/jobs/${jobId}/result`, {
        headers: { authorization: `Bearer ${KEYS.all}`, "accept-encoding": "br, gzip" },
        cf: { clientAcceptEncoding: "identity" },
      }),
      env,
      createExecutionContext(),
    );
    expect(edge.headers.get("content-encoding")).toBeNull();
    expect(await edge.text()).toBe(text);
  });

  it("canceled midway, ends without a file and leaves no carried bytes", async () => {
    const { jobId, deliver } = await start();
    await deliver({ jobId, chunk: 0 });
    const carried = (await exportRow(jobId))?.carry_key;
    const canceled = await api(`/api/v1/jobs/${jobId}/cancel`, { method: "POST", body: {} });
    expect(canceled.status).toBe(202);
    expect(await deliver({ jobId, chunk: 1 })).toBeUndefined();
    const job = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(job.status).toBe("done_with_errors");
    expect(job.summary.failed_records).toBeGreaterThan(0);
    expect(await env.PAYLOADS.head(carried ?? "")).toBeNull();
    expect(await env.PAYLOADS.head(resultKey(jobId))).toBeNull();
    expect((await api(`/api/v1/jobs/${jobId}/result`)).status).toBe(404);
  });
});

describe("an export that stops", () => {
  it("is re-driven from the message that is due, and ends given up by a dead letter", async () => {
    const { jobId, deliver, sent } = await start();
    await deliver({ jobId, chunk: 0 });
    // No sign of life for an hour: the sweep sends the message due (1), not the first again.
    const { testEnv } = capturingEnv();
    await env.DB.prepare("UPDATE jobs SET heartbeat_at = '2000-01-01T00:00:00Z' WHERE id = ?")
      .bind(jobId)
      .run();
    const swept: JobMessage[] = [];
    await runScheduled("* * * * *", Date.now(), {
      ...testEnv,
      JOBS_QUEUE: { ...testEnv.JOBS_QUEUE, send: async (m: JobMessage) => void swept.push(m) } as never,
    });
    expect(swept).toEqual([{ jobId, chunk: 1 }]);
    expect(sent).toEqual([]);
    const carried = (await exportRow(jobId))?.carry_key;
    expect(await env.PAYLOADS.head(carried ?? "")).not.toBeNull();
    await processDeadLetter(testEnv, { jobId, chunk: 1 }, JOB_PIPELINE);
    expect(await env.PAYLOADS.head(carried ?? "")).toBeNull();
    const job = (await api(`/api/v1/jobs/${jobId}`)).json;
    expect(job.status).toBe("done_with_errors");
    expect((await api(`/api/v1/jobs/${jobId}/result`)).status).toBe(404);
  });
});
