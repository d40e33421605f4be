import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CHUNK_MAX_RECORDS, payloadKey } from "../../src/async/bulk/chunking.ts";
import { JSON_MAX_DEPTH } from "../../src/http/json-scan.ts";
import { MAX_LISTED_PROBLEMS } from "../../src/http/problem.ts";
import { api } from "../support/api.ts";
import { jobCount } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

/** `depth` nested arrays around `inner`. */
const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

const bulkVariants = (records: string) => `{"options":{"match_by":"id"},"variants":[${records}]}`;

describe(`JSON nesting is limited to ${JSON_MAX_DEPTH} levels`, () => {
  it("a body nested one level deeper is 400 invalid_body naming the limit and the path, and creates no job", async () => {
    const before = await jobCount();
    // body (1) → variants (2) → record (3) → x: 63 more arrays = 66 levels.
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(`{"id":1,"x":${nested(JSON_MAX_DEPTH - 1)}}`),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(res.json.errors).toEqual([
      {
        location: "body",
        path: `variants.0.x${".0".repeat(JSON_MAX_DEPTH - 3)}`,
        message: `must not be nested deeper than ${JSON_MAX_DEPTH} levels of objects and arrays`,
      },
    ]);
    expect(await jobCount()).toBe(before);
  });

  it("a body nested exactly to the limit is accepted (the record itself is judged by the job)", async () => {
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(`{"id":1,"x":${nested(JSON_MAX_DEPTH - 3)}}`),
    });
    expect(res.status, res.text).toBe(202);
  });

  it("millions of levels are refused as quickly as any other bad body (one pass, no recursion)", async () => {
    const depth = 4_000_000;
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(`{"id":1,"x":${nested(depth)}}`),
    });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].message).toMatch(/nested deeper than 64/);
  });

  it("applies to synchronous writes too", async () => {
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: `{"name":"Deep","translations":{"es-ES":{}},"x":${nested(200)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({
      location: "body",
      path: `x${".0".repeat(JSON_MAX_DEPTH - 1)}`,
    });
  });
});

describe("strings must be valid Unicode", () => {
  it("a lone surrogate in a value is 400 invalid_body with its path, and nothing is stored", async () => {
    const name = unique("Lone");
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: `{"name":"${name}\\ud800b","translations":{"es-ES":{}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(res.json.errors).toEqual([
      { location: "body", path: "name", message: expect.stringMatching(/lone UTF-16 surrogate \(\\ud800/) },
    ]);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM brands WHERE name LIKE ?")
      .bind(`${name}%`)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("a lone low surrogate, or one in a key, is refused too; inside a bulk record as well", async () => {
    const inKey = await api("/api/v1/brands", {
      method: "POST",
      body: `{"name":"K","translations":{"es-ES":{"descr\\udc00":"x"}}}`,
    });
    expect(inKey.status).toBe(400);
    expect(inKey.json.errors[0].path).toBe("translations.es-ES.descr\udc00");
    const inRecord = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(`{"id":1,"sku":"a"},{"id":2,"sku":"b\\udfffc"}`),
    });
    expect(inRecord.status).toBe(400);
    expect(inRecord.json.errors[0].path).toBe("variants.1.sku");
  });

  it("a surrogate pair is a character like any other and reads back exactly", async () => {
    const name = `${unique("Pair")} \\ud83d\\ude00`;
    const res = await api("/api/v1/brands", {
      method: "POST",
      body: `{"name":"${name}","translations":{"es-ES":{}}}`,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.name).toBe(JSON.parse(`"${name}"`));
    expect(res.json.name.endsWith("😀")).toBe(true);
  });

  it("bytes that are not UTF-8 are 400, not replaced", async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"name":"a'),
      0xed,
      0xa0,
      0x80,
      ...new TextEncoder().encode('b"}'),
    ]);
    const res = await api("/api/v1/brands", { method: "POST", body: bytes });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ location: "body", path: "", message: "must be valid UTF-8" }]);
  });
});

describe("bulk bodies are checked without parsing their records", () => {
  it("a body of a million tiny records is accepted as one stored object split into 200-record chunks", async () => {
    const count = 1_000_000;
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(Array(count).fill("{}").join(",")),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(202);
    const jobId = res.json[0].job_id as string;
    const row = await env.DB.prepare("SELECT total_records, chunk_count FROM jobs WHERE id = ?")
      .bind(jobId)
      .first<{ total_records: number; chunk_count: number }>();
    expect(row).toEqual({ total_records: count, chunk_count: count / CHUNK_MAX_RECORDS });
    const objects = (await env.PAYLOADS.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key);
    expect(objects).toEqual([payloadKey(jobId)]);
    // Not worth running here: cancel it.
    expect((await api(`/api/v1/jobs/${jobId}/cancel`, { method: "POST" })).status).toBe(202);
  });

  it("elements that are not objects are listed, at most 1,000 problems, the rest counted", async () => {
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: bulkVariants(["{}", ...Array(5000).fill("1")].join(",")),
    });
    expect(res.status).toBe(400);
    expect(res.json.errors).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(res.json.errors[0]).toEqual({
      location: "body",
      path: "variants.1",
      message: "must be an object",
    });
    expect(res.json.errors.at(-1)).toEqual({
      location: "body",
      path: "variants",
      message: `${5000 - (MAX_LISTED_PROBLEMS - 1)} more elements are not objects`,
    });
  });

  it("100,000 unknown top-level keys are listed up to the cap", async () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(",");
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: `{"options":{"match_by":"id"},"variants":[{}],${keys}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json.errors).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(res.json.errors[0]).toEqual({ location: "body", path: "k0", message: "unknown field" });
    expect(res.json.detail).toBe(
      `100000 problems found in the request; the first ${MAX_LISTED_PROBLEMS} are listed`,
    );
  });

  it("the last of duplicate top-level keys counts, as in JSON.parse", async () => {
    const res = await api("/api/v1/variants/bulk", {
      method: "POST",
      body: `{"variants":[1],"options":{"match_by":"nope"},"variants":[{},{}],"options":{"match_by":"id"}}`,
    });
    expect(res.status, res.text).toBe(202);
    const job = (await api(`/api/v1/jobs/${res.json[0].job_id}`)).json;
    expect(job.summary.total_records).toBe(2);
  });

  it("a record of 100,000 keys is accepted: what is inside a record is the job's to judge", async () => {
    const record = `{"id":1,${Array.from({ length: 100_000 }, (_, i) => `"f${i}":${i}`).join(",")}}`;
    const res = await api("/api/v1/variants/bulk", { method: "POST", body: bulkVariants(record) });
    expect(res.status, res.text.slice(0, 300)).toBe(202);
  });
});
