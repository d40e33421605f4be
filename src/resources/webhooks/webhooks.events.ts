import { z } from "@hono/zod-openapi";
import { deliveredEvents } from "../../async/deliveries/events.ts";
import type { DeliveredData, DeliveredEvent } from "../../async/deliveries/types.ts";
import { rowRenderer } from "../../conventions/row-renderer.ts";
import { jobResource } from "../jobs/jobs.resource.ts";
import { JobSchema } from "../jobs/jobs.schema.ts";

/** An event's `data`: rendered for each delivery, and documented by the body schema of its events. */
export interface EventData extends DeliveredData {
  schema: z.ZodObject;
  example: Record<string, unknown>;
  /** The component documenting the body of the events carrying this data (webhooks.schema.ts). */
  component: string;
  /** The description of that body's `type`, which lists those events. */
  typeDescription: string;
}

/** One webhook event: the name subscriptions ask for, when it fires, what fires it, its `data`. */
interface WebhookEventDeclaration extends DeliveredEvent {
  /** When it fires, completing "Sent to every active subscription to `<name>` when …". */
  when: string;
  /** The same in a few words, for the subscriptions' `events` description. */
  inShort: string;
  data: EventData;
}

const renderJob = rowRenderer(jobResource);

/** The `data` of a job event: the job exactly as `GET /jobs/{id}` shows it. */
const JOB_DATA: EventData = {
  schema: z.object({
    job: JobSchema.openapi({ description: "The job in its default representation, as `GET /jobs/{id}`." }),
  }),
  render: (job) => ({ job: renderJob(job) }),
  example: {
    job: {
      id: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c",
      type: "products_bulk_upsert",
      status: "done",
      created_at: "2026-11-22T05:10:30Z",
      started_at: "2026-11-22T05:10:30Z",
      finished_at: "2026-11-22T05:10:32Z",
      summary: {
        total_records: 2,
        processed_records: 2,
        succeeded_records: 2,
        failed_records: 0,
        log_info_count: 1,
        log_warning_count: 0,
        log_error_count: 0,
      },
    },
  },
  component: "WebhookEvent",
  typeDescription: "The event: `job.<final status>`.",
};

/**
 * Every event a subscription can ask for, in the documents' order; one entry declares an event. The
 * subscription schemas' enum and description, the documented outgoing webhooks (webhooks.outgoing.ts)
 * and the deliveries (DELIVERED_EVENTS, handed to the webhooks consumer and the finalize hook) derive
 * from it; the delivery pipeline serves any entry unchanged. docs/webhooks.md describes the events for readers.
 */
export const WEBHOOK_EVENTS = [
  {
    name: "job.done",
    when: "a job finished with every record succeeded",
    inShort: "every record succeeded",
    jobStatus: "done",
    data: JOB_DATA,
  },
  {
    name: "job.done_with_errors",
    when: "a job finished with some records failed",
    inShort: "some failed",
    jobStatus: "done_with_errors",
    data: JOB_DATA,
  },
  {
    name: "job.failed",
    when: "a job finished with no record succeeded (or its payload could not be read)",
    inShort: "none succeeded",
    jobStatus: "failed",
    data: JOB_DATA,
  },
] as const satisfies readonly WebhookEventDeclaration[];

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number]["name"];

export const WEBHOOK_EVENT_NAMES: WebhookEventName[] = WEBHOOK_EVENTS.map((event) => event.name);

/** The events as the delivery pipeline serves them (checked: a job status fires at most one). */
export const DELIVERED_EVENTS = deliveredEvents(WEBHOOK_EVENTS);
