import type { JobRow } from "../bulk/types.ts";
import type { DeliveredEvent } from "./types.ts";

/**
 * The declared events as the deliveries use them, made once where they are declared and handed
 * down (src/queues.ts to the webhooks consumer, the finalize hook to the enqueueing), since no
 * pipeline imports a resource.
 */
export interface DeliveredEvents {
  /** The event a job that reached its final state fires, if any. */
  firedBy: (job: JobRow) => DeliveredEvent | undefined;
  /** A declared event by its name (a queued message's `eventType`). */
  named: (name: string) => DeliveredEvent;
}

/**
 * A final job status fires at most one event: a job's deliveries to one subscription share one
 * message id (enqueue.ts), so a second event of the same status would be taken for a duplicate.
 */
export function deliveredEvents(events: readonly DeliveredEvent[]): DeliveredEvents {
  const statuses = events.map((event) => event.jobStatus);
  if (new Set(statuses).size !== statuses.length) {
    throw new Error(`webhook events: a job status fires more than one event (${statuses.join(", ")})`);
  }
  return {
    firedBy: (job) => events.find((event) => event.jobStatus === job.status),
    named: (name) => {
      const event = events.find((e) => e.name === name);
      if (!event) throw new Error(`webhook event ${name} is not declared`);
      return event;
    },
  };
}
