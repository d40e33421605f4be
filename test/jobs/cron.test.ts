import { createScheduledController, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CRON_TASKS, runCron } from "../../src/cron.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

afterEach(() => vi.restoreAllMocks());

describe("cron", () => {
  it("runs every task of the trigger even when an earlier one throws, and logs the failure", async () => {
    await env.DB.prepare(
      `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, state, created_at, expires_at)
       VALUES (1, 'cron-expired-key', 'f', 'done', ?, ?)`,
    )
      .bind(iso(NOW - 2 * 86_400_000), iso(NOW - 86_400_000))
      .run();
    const ran: string[] = [];
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => errors.push(String(line)));
    const controller = createScheduledController({ cron: "0 * * * *", scheduledTime: NOW });

    const run = runCron(controller, env, {
      ...CRON_TASKS,
      // The hour's first task fails; the ones after it must still run.
      "job-retention": async () => {
        ran.push("job-retention");
        throw new Error("R2 unavailable");
      },
      "idempotency-key-purge": async (taskEnv, now) => {
        ran.push("idempotency-key-purge");
        await CRON_TASKS["idempotency-key-purge"](taskEnv, now);
      },
      "webhook-delivery-retention": async () => {
        ran.push("webhook-delivery-retention");
      },
      "planner-statistics": async () => {
        ran.push("planner-statistics");
      },
    });

    await expect(run).rejects.toThrow("1 task(s) failed");
    expect(ran).toEqual([
      "job-retention",
      "idempotency-key-purge",
      "webhook-delivery-retention",
      "planner-statistics",
    ]);
    const left = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'cron-expired-key'",
    ).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(errors.map((line) => JSON.parse(line))).toEqual([
      {
        level: "error",
        event: "cron.task_failed",
        cron: "0 * * * *",
        task: "job-retention",
        error: "R2 unavailable",
      },
    ]);
  });
});
