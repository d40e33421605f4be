import { isoSeconds } from "../../lib/time.ts";
import type { JobRow } from "../bulk/types.ts";
import type { DeliveredEvent } from "./types.ts";

/** The delivery body and its `webhook-timestamp`: the same instant, whole seconds. */
export function buildEvent(event: DeliveredEvent, job: JobRow, nowMs: number) {
  const type = event.name;
  const data = event.data.render(job);
  const seconds = Math.floor(nowMs / 1000);
  const timestamp = isoSeconds(seconds * 1000);
  const body = JSON.stringify({ type, timestamp, data });
  return { body, timestamp: seconds };
}
