import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Waits until a `wrangler dev` started by a script answers an authenticated request, failing early
 * when the process exits. Shared by the benchmark and the soak run.
 */
export async function waitUntilServing(
  child: ChildProcess,
  origin: string,
  secret: string,
  timeoutMs: number,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}); see ${logFile}`);
    try {
      const res = await fetch(`${origin}/api/v1/store`, {
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stopProcessGroup(child);
  throw new Error(`wrangler dev did not answer within ${timeoutMs} ms; see ${logFile}`);
}

/** SIGTERM to the (detached) process group a script started, then SIGKILL if it lingers. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
    signal("SIGKILL");
    await Promise.race([exited, sleep(5_000)]);
  }
}
