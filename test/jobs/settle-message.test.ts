import { describe, expect, it, vi } from "vitest";
import { settleMessage } from "../../src/async/settle-message.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A message that records how it was settled. */
function recordingMessage() {
  const calls: unknown[] = [];
  return {
    calls,
    ack: () => calls.push("ack"),
    retry: (options?: QueueRetryOptions) => calls.push(["retry", options?.delaySeconds]),
  };
}

const failure = { event: "test.failed", fields: { case: "settle" }, delaySeconds: 5 };

describe("settling a queue message", () => {
  it("a handler done within the hand-off time is settled in line: acked, or retried after the failure delay", async () => {
    const ok = recordingMessage();
    const waitUntil = vi.fn();
    await settleMessage(ok, async () => {}, failure, { afterMs: 200, redeliverySeconds: 60, waitUntil });
    expect(ok.calls).toEqual(["ack"]);
    const failed = recordingMessage();
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    await settleMessage(
      failed,
      async () => {
        throw new Error("D1 unavailable");
      },
      failure,
      { afterMs: 200, redeliverySeconds: 60, waitUntil },
    );
    spy.mockRestore();
    expect(failed.calls).toEqual([["retry", 5]]);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("a handler that outlasts the hand-off is left for a redelivery and never settled twice; its later failure is logged", async () => {
    const message = recordingMessage();
    const background: Promise<unknown>[] = [];
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const started = Date.now();
    await settleMessage(
      message,
      async () => {
        await sleep(300);
        throw new Error("D1 unavailable");
      },
      failure,
      { afterMs: 50, redeliverySeconds: 60, waitUntil: (work) => background.push(work) },
    );
    expect(Date.now() - started).toBeLessThan(250);
    expect(message.calls).toEqual([["retry", 60]]);
    expect(lines).toEqual([]);
    await Promise.all(background);
    spy.mockRestore();
    expect(message.calls).toEqual([["retry", 60]]);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: "error",
        event: "test.failed",
        case: "settle",
        error: expect.stringContaining("D1 unavailable"),
      },
    ]);
  });
});
