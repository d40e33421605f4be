import { isoSeconds } from "../../lib/time.ts";
import type { JobRow } from "../bulk-jobs/types.ts";
import type { WebhookEvent } from "./types.ts";

/** The job in its API representation, as `GET /jobs/{id}` shows it. */
type JobRenderer = (job: JobRow) => Record<string, unknown>;

let renderJob: JobRenderer | undefined;

/** How payloads render the job: wired at the top (src/index.ts), since no pipeline imports a resource. */
export const renderJobsWith = (render: JobRenderer) => {
  renderJob = render;
};

/** The delivery body and its `webhook-timestamp`: the same instant, whole seconds. */
export function buildEvent(type: WebhookEvent, job: JobRow, nowMs: number) {
  if (!renderJob) throw new Error("webhook payloads have no job renderer: src/index.ts wires one");
  const seconds = Math.floor(nowMs / 1000);
  const timestamp = isoSeconds(seconds * 1000);
  const body = JSON.stringify({ type, timestamp, data: { job: renderJob(job) } });
  return { body, timestamp: seconds };
}
