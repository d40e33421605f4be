import { describeError } from "../lib/errors.ts";
import { log } from "../lib/log.ts";

/**
 * Handles one queue message: acks it once `handle` succeeds; if `handle` throws, logs `event` with
 * `fields` and the error, and has the queue redeliver the message after `delaySeconds`.
 */
export async function settleMessage(
  message: Pick<Message, "ack" | "retry">,
  handle: () => Promise<unknown>,
  failure: { event: string; fields: Record<string, unknown>; delaySeconds: number },
): Promise<void> {
  try {
    await handle();
    message.ack();
  } catch (err) {
    log("error", failure.event, { ...failure.fields, error: describeError(err) });
    message.retry({ delaySeconds: failure.delaySeconds });
  }
}
