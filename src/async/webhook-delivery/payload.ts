import type { RenderContext } from "../../conventions/resource.ts";
import { isoSeconds } from "../../lib/time.ts";
// biome-ignore lint/style/noRestrictedImports: temporary, until the job is rendered through the engine at the top
import { jobResource } from "../../resources/jobs/jobs.resource.ts";
import type { JobRow } from "../bulk-jobs/types.ts";
import type { WebhookEvent } from "./types.ts";

/**
 * The job in its default representation, exactly as `GET /jobs/{id}` shows it. Job fields render
 * from the row alone (no loaders, no locales), so no request context is needed.
 */
export function renderJob(job: JobRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(jobResource.fields)) {
    if (field.kind === "fixed" || field.kind === "default") {
      out[field.into ?? name] = field.render(job, {}, undefined as unknown as RenderContext);
    }
  }
  return out;
}

/** The delivery body and its `webhook-timestamp`: the same instant, whole seconds. */
export function buildEvent(type: WebhookEvent, job: JobRow, nowMs: number) {
  const seconds = Math.floor(nowMs / 1000);
  const timestamp = isoSeconds(seconds * 1000);
  const body = JSON.stringify({ type, timestamp, data: { job: renderJob(job) } });
  return { body, timestamp: seconds };
}
