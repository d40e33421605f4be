import type { OnJobFinalized } from "../../async/bulk/finalize.ts";
import { enqueueJobWebhooks } from "../../async/deliveries/enqueue.ts";
import { DELIVERED_EVENTS } from "./webhooks.events.ts";

/**
 * What a job reaching its final state sets off: one webhook delivery per active subscription to the
 * event its status fires. Handed to every stage that finalizes jobs: the jobs consumer
 * (src/queues.ts), the liveness sweep and retention (src/cron.ts), and the cancel route.
 */
export const onJobFinalized: OnJobFinalized = (env, job) => enqueueJobWebhooks(env, job, DELIVERED_EVENTS);
