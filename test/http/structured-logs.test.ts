import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { quietEnv, stageJob } from "../support/jobs.ts";
import { KEYS } from "../support/keys.ts";
import { deliverToQueue } from "../support/queues.ts";

/** The structured lines the Worker wrote to console.log while `run` ran. */
async function linesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe("structured logs", () => {
  it("one line per request: id, method, route pattern, status, duration, D1 round trips, key id, cache outcome; no secret", async () => {
    let requestId = "";
    const lines = await linesOf(async () => {
      const res = await api("/api/v1/brands/999999?fields=name");
      requestId = res.headers.get("x-request-id") ?? "";
    });
    const requests = lines.filter((l) => l.event === "request");
    expect(requests).toEqual([
      {
        level: "info",
        event: "request",
        request_id: requestId,
        method: "GET",
        route: "/api/v1/brands/{id}",
        status: 404,
        duration_ms: expect.any(Number),
        d1_round_trips: expect.any(Number),
        api_key_id: expect.any(Number),
        // What the edge cache did: the cached read entrypoint's own computation logs no line.
        cache: "miss",
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain(KEYS.all);
    expect(JSON.stringify(lines)).not.toContain("999999");
  });

  it("an unknown route and an unauthenticated request are logged too", async () => {
    const lines = await linesOf(async () => {
      await api("/api/v1/nowhere");
      await api("/api/v1/brands", { key: null });
    });
    expect(lines.filter((l) => l.event === "request").map((l) => [l.route, l.status, l.api_key_id])).toEqual([
      [null, 404, null],
      ["/api/v1/brands", 401, null],
    ]);
  });

  it("one line per job chunk: job id, chunk, records, duration, outcome", async () => {
    const p = await createProduct({ variants: [{}, {}, {}] });
    const jobId = await stageJob(
      "variants_bulk_update",
      p.variantIds.map((id) => ({ id, warehouse_stock: 3 })),
      { options: { match_by: "id" } },
      2,
    );
    const quiet = quietEnv();
    const lines = await linesOf(async () => {
      await deliverToQueue("storefront-jobs", { jobId, chunk: 0 }, quiet);
      await deliverToQueue("storefront-jobs", { jobId, chunk: 0 }, quiet);
    });
    expect(lines.filter((l) => l.event === "job.chunk")).toEqual([
      {
        level: "info",
        event: "job.chunk",
        job_id: jobId,
        chunk: 0,
        records: 2,
        duration_ms: expect.any(Number),
        outcome: "applied",
      },
    ]);
  });
});
