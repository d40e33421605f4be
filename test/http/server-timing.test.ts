import { describe, expect, it } from "vitest";
import { PHASES, PhaseClock } from "../../src/lib/phase-clock.ts";
import { api } from "../support/api.ts";

/**
 * The phase entries of a Server-Timing header, after `app`, the D1 round trips and the rows they
 * read and wrote, and before what the edge cache did (`cache;desc="…"`, test/edge/).
 */
function phases(header: string | null) {
  const match =
    /^app;dur=\d+, d1;desc="round trips";dur=\d+, d1-rows;desc="rows read";dur=\d+, d1-rows-written;desc="rows written";dur=\d+, (.*?)(, cache;desc="[a-z]+".*)?$/.exec(
      header ?? "",
    );
  expect(match, `Server-Timing: ${header}`).not.toBeNull();
  return (match?.[1] ?? "").split(", ").map((entry) => {
    const parsed = /^([a-z0-9-]+);dur=(\d+\.\d{3})$/.exec(entry);
    expect(parsed, entry).not.toBeNull();
    return { name: parsed?.[1], ms: Number(parsed?.[2]) };
  });
}

describe("Server-Timing phases", () => {
  it("a read reports each phase of its time after the D1 round trips, in a fixed order", async () => {
    const res = await api("/api/v1/suppliers?per_page=5");
    expect(res.status).toBe(200);
    expect(phases(res.headers.get("server-timing")).map((p) => p.name)).toEqual([
      "validate",
      "query-build",
      "d1-wait",
      "map",
      "render",
      "json",
      "etag",
      "other",
    ]);
  });

  it("a request refused in validation reports only the phases it went through", async () => {
    const res = await api("/api/v1/jobs/not-a-job-id");
    expect(res.status).toBe(400);
    expect(phases(res.headers.get("server-timing")).map((p) => p.name)).toEqual(["validate", "other"]);
  });

  it("a route refused before any handler reports the rest only", async () => {
    const res = await api("/api/v1/nothing-here", { key: null });
    expect(res.status).toBe(404);
    expect(phases(res.headers.get("server-timing")).map((p) => p.name)).toEqual(["other"]);
  });
});

describe("Server-Timing rows written", () => {
  const written = (res: { headers: Headers }) =>
    Number(/d1-rows-written;desc="rows written";dur=(\d+)/.exec(res.headers.get("server-timing") ?? "")?.[1]);

  it("a write reports the rows D1 wrote for it, index entries included; a read none", async () => {
    const internalId = `ST-${crypto.randomUUID()}`;
    const created = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: `Timing ${internalId}`, internal_id: internalId },
    });
    expect(created.status, created.text).toBe(201);
    // The supplier row, its internal_id and name index entries, the row count trigger's row, at least.
    expect(written(created)).toBeGreaterThanOrEqual(4);
    expect(written(await api("/api/v1/suppliers?per_page=5"))).toBe(0);
  });
});

describe("phase clock", () => {
  it("gives each moment to one phase, so the phases add up to the time measured", async () => {
    const started = performance.now();
    const clock = new PhaseClock();
    expect(clock.enter("validate")).toBe("other");
    expect(clock.enter("json")).toBe("validate");
    const entries = clock.serverTiming().split(", ");
    const elapsed = performance.now() - started;
    expect(entries.map((e) => e.split(";")[0])).toEqual(["validate", "json", "other"]);
    const total = entries.reduce((sum, e) => sum + Number(e.split(";dur=")[1]), 0);
    expect(total).toBeLessThanOrEqual(elapsed + 0.003);
    expect(PHASES).toContain("d1-wait");
  });
});
