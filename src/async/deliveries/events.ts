import type { JobRow } from "../bulk/types.ts";
import type { DeliveredEvent } from "./types.ts";

let declared: readonly DeliveredEvent[] = [];

/**
 * The events deliveries serve: wired at the top (src/index.ts), since no pipeline imports a
 * resource. A final job status fires at most one event: a job's deliveries to one subscription
 * share one message id (enqueue.ts).
 */
export function deliverEvents(events: readonly DeliveredEvent[]) {
  const statuses = events.map((event) => event.jobStatus);
  if (new Set(statuses).size !== statuses.length) {
    throw new Error(`webhook events: a job status fires more than one event (${statuses.join(", ")})`);
  }
  declared = events;
}

/** The event a job that reached its final state fires, if any. */
export const eventFiredBy = (job: JobRow) => declared.find((event) => event.jobStatus === job.status);

export function declaredEvent(name: string): DeliveredEvent {
  const event = declared.find((e) => e.name === name);
  if (!event)
    throw new Error(`webhook event ${name} is not declared: src/index.ts wires the declared events`);
  return event;
}
