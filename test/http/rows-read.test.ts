import { describe, expect, it } from "vitest";
import { rowsRead } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

describe("D1 rows read in Server-Timing", () => {
  it("sums meta.rows_read of the request's D1 results: a page of 6 reads more than a page of 1", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await api("/api/v1/brands", {
        method: "POST",
        body: { name: unique("Rows"), translations: {} },
      });
      expect(res.status).toBe(201);
    }
    await api("/api/v1/brands?fields=name&per_page=2"); // the store's settings, read once per isolate
    const one = await api("/api/v1/brands?fields=name&per_page=1");
    const six = await api("/api/v1/brands?fields=name&per_page=6");
    expect(one.json.data).toHaveLength(1);
    expect(six.json.data).toHaveLength(6);
    expect(rowsRead(one.headers)).toBeGreaterThanOrEqual(1);
    expect(rowsRead(six.headers) - rowsRead(one.headers)).toBeGreaterThanOrEqual(5);
  });

  it("is 0 for a request that runs no statement", async () => {
    await api("/api/v1/jobs/not-a-job-id"); // the API key's lookup, once per isolate, reads a row
    const res = await api("/api/v1/jobs/not-a-job-id");
    expect(res.status).toBe(400);
    expect(rowsRead(res.headers)).toBe(0);
  });
});
