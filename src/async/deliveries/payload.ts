import { isoSeconds } from "../../lib/time.ts";
import type { JobRow } from "../bulk/types.ts";
import { declaredEvent } from "./events.ts";

/** The delivery body and its `webhook-timestamp`: the same instant, whole seconds. */
export function buildEvent(type: string, job: JobRow, nowMs: number) {
  const data = declaredEvent(type).data.render(job);
  const seconds = Math.floor(nowMs / 1000);
  const timestamp = isoSeconds(seconds * 1000);
  const body = JSON.stringify({ type, timestamp, data });
  return { body, timestamp: seconds };
}
