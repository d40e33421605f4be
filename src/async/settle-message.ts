import { describeError } from "../lib/errors.ts";
import { log } from "../lib/log.ts";

interface Failure {
  event: string;
  fields: Record<string, unknown>;
  delaySeconds: number;
}

/**
 * How a handler that outlasts `afterMs` stops holding up its batch: the message is marked for
 * redelivery after `redeliverySeconds` (so losing the background work loses nothing: the handler
 * must recognise work already done when the message comes back) and the handler runs on through
 * `waitUntil`. The batch then ends without waiting for it only under the Worker's
 * `queue_consumer_no_wait_for_wait_until` compatibility flag.
 */
export interface HandOff {
  afterMs: number;
  redeliverySeconds: number;
  waitUntil: (work: Promise<unknown>) => void;
}

/**
 * Handles one queue message: acks it once `handle` succeeds; if `handle` throws, logs `event` with
 * `fields` and the error, and has the queue redeliver the message after `delaySeconds`. With
 * `handOff`, a handler still running after `handOff.afterMs` is handed off instead (see HandOff);
 * the message is then settled once only, by that redelivery.
 */
export async function settleMessage(
  message: Pick<Message, "ack" | "retry">,
  handle: () => Promise<unknown>,
  failure: Failure,
  handOff?: HandOff,
): Promise<void> {
  // The handler's error, or null once it succeeded.
  const outcome = Promise.resolve()
    .then(handle)
    .then(
      () => null,
      (err: unknown) => ({ err }),
    );
  if (handOff && (await outlasts(outcome, handOff.afterMs))) {
    message.retry({ delaySeconds: handOff.redeliverySeconds });
    handOff.waitUntil(outcome.then((error) => error && logFailure(failure, error.err)));
    return;
  }
  const error = await outcome;
  if (error === null) {
    message.ack();
  } else {
    logFailure(failure, error.err);
    message.retry({ delaySeconds: failure.delaySeconds });
  }
}

function logFailure(failure: Failure, err: unknown) {
  log("error", failure.event, { ...failure.fields, error: describeError(err) });
}

/** Whether `work` is still running after `ms` (the timer is cleared as soon as it settles). */
async function outlasts(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timers: ReturnType<typeof setTimeout>[] = [];
  const late = new Promise<boolean>((resolve) => timers.push(setTimeout(() => resolve(true), ms)));
  try {
    return await Promise.race([work.then(() => false), late]);
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}
