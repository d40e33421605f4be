import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { DELIVERY_TIMEOUT_MS } from "../../async/deliveries/retry-policy.ts";
import type { AppEnv } from "../../env.ts";
import { WEBHOOK_EVENTS } from "./webhooks.events.ts";
import { eventBodySchema, WebhookEventHeadersSchema } from "./webhooks.schema.ts";

/** The receiver's time to answer, as the documents state it ("10 s"). */
const TIMEOUT = `${DELIVERY_TIMEOUT_MS / 1000} s`;

/** The outgoing deliveries of every declared event, documented under the document's top-level `webhooks`. */
export function registerWebhookEvents(app: OpenAPIHono<AppEnv>) {
  for (const { name, when, data } of WEBHOOK_EVENTS) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      // Kebab-case keys like the paths (`job-done-with-errors`); `type` in the body is the event name.
      path: name.replace(/[._]/g, "-"),
      operationId: `webhookEvent_${name.replace(".", "_")}`,
      summary: `\`${name}\`: ${when}`,
      description: [
        `Sent to every active subscription to \`${name}\` when ${when}.`,
        "Signed per Standard Webhooks: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the subscription's secret before trusting the body, and reject stale timestamps.",
        `Answer 2xx within ${TIMEOUT} (acknowledge first, then do the work). Anything else (another status, a redirect, a timeout) is retried with the same \`webhook-id\` after about 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h and 12 h; a subscription that keeps failing for 3 days is disabled.`,
      ].join("\n\n"),
      tags: ["Webhooks"],
      security: [],
      request: {
        headers: WebhookEventHeadersSchema,
        body: {
          required: true,
          content: { "application/json": { schema: eventBodySchema(data) } },
        },
      },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery; the body is ignored." },
        "4XX": {
          description: `Any other answer (4xx, 5xx, 3xx, or none within ${TIMEOUT}) fails the attempt, which is retried; its body is ignored.`,
          content: {
            "application/problem+json": {
              schema: z
                .object({ type: z.string().optional(), title: z.string().optional() })
                .passthrough()
                .openapi({ description: "Whatever the receiver answers (problem JSON or not); ignored." }),
            },
          },
        },
      },
    });
  }
}
