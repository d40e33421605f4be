import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index.ts";
import { simulatedQueueDelay, withSimulatedLatency } from "../../src/simulated-latency.ts";
import { KEYS } from "../support/keys.ts";
import { deliverToQueue } from "../support/queues.ts";

const RTT = 40;
const simulating = { ...env, SIMULATED_D1_RTT_MS: String(RTT), SIMULATED_QUEUE_DELAY_MS: "60" };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await work();
  return { ms: Date.now() - started, value };
}

describe("simulated deployment latency (benchmark only)", () => {
  it("is inert outside development: the bindings are handed on untouched and queues wait nothing", () => {
    const production = { ...simulating, ENVIRONMENT: "production" };
    expect(withSimulatedLatency(production)).toBe(production);
    expect(simulatedQueueDelay(production)).toBe(0);
  });

  it("is inert in development without the variables", () => {
    expect(withSimulatedLatency(env)).toBe(env);
    expect(simulatedQueueDelay(env)).toBe(0);
  });

  it("makes every D1 call wait the round trip and answer what D1 answers", async () => {
    const db = withSimulatedLatency(simulating).DB;
    const session = db.withSession("first-primary");
    const calls: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        "first",
        () => db.prepare("SELECT ? AS n").bind(7).first(),
        () => env.DB.prepare("SELECT 7 AS n").first(),
      ],
      ["all", () => db.prepare("SELECT 1 AS n").all(), () => env.DB.prepare("SELECT 1 AS n").all()],
      ["raw", () => db.prepare("SELECT 1 AS n").raw(), () => env.DB.prepare("SELECT 1 AS n").raw()],
      ["run", async () => (await db.prepare("SELECT 1").run()).success, async () => true],
      [
        "batch",
        async () =>
          (await db.batch([db.prepare("SELECT 1 AS n"), db.prepare("SELECT 2 AS n")])).map((r) => r.results),
        async () => [[{ n: 1 }], [{ n: 2 }]],
      ],
      ["exec", async () => (await db.exec("SELECT 1")).count, async () => 1],
      [
        "session all",
        () => session.prepare("SELECT 3 AS n").all(),
        () => env.DB.prepare("SELECT 3 AS n").all(),
      ],
      [
        "session batch",
        async () => (await session.batch([session.prepare("SELECT 4 AS n")]))[0]?.results,
        async () => [{ n: 4 }],
      ],
    ];
    for (const [name, delayed, direct] of calls) {
      const { ms, value } = await timed(delayed);
      expect(ms, name).toBeGreaterThanOrEqual(RTT - 1);
      const expected = await direct();
      if (name === "all" || name === "session all") {
        expect((value as D1Result).results, name).toEqual((expected as D1Result).results);
      } else {
        expect(value, name).toEqual(expected);
      }
    }
  });

  it("a request served by the Worker pays one round trip per D1 call it reports", async () => {
    const ctx = createExecutionContext();
    // Without the edge cache: its entrypoint would run with the test's real bindings, not these.
    const request = new Request("https://api.test/api/v1/store", {
      headers: { authorization: `Bearer ${KEYS.all}`, "cache-control": "no-cache" },
    });
    const { ms, value: response } = await timed(async () =>
      worker.fetch(request as Parameters<typeof worker.fetch>[0], simulating, ctx),
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    const trips = Number(/d1;[^,]*dur=(\d+)/.exec(response.headers.get("server-timing") ?? "")?.[1]);
    expect(trips).toBeGreaterThanOrEqual(1);
    expect(ms).toBeGreaterThanOrEqual(trips * RTT - 1);
  });

  it("a queue batch waits the delivery delay before it is handled", async () => {
    const { ms } = await timed(() =>
      deliverToQueue("storefront-jobs", { jobId: crypto.randomUUID(), chunk: 0 }, simulating),
    );
    // The delay, then the one D1 round trip that finds no such job.
    expect(ms).toBeGreaterThanOrEqual(60 + RTT - 1);
  });
});
