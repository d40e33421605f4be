import { createRoute, type MountRoute, updateRoute } from "../../conventions/routes.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { WebhookCreateSchema, WebhookUpdateSchema, WebhookWithSecretSchema } from "./webhooks.schema.ts";
import { createWebhook, deleteWebhook, updateWebhook } from "./webhooks.write.ts";

/** Not the standard answers: they carry the signing secret when one is made. */
const subscribe = createRoute({
  summary: "Subscribe to job events",
  description:
    "Creates a subscription. When a job reaches a final state, each active subscription to `job.<status>` receives a signed POST (Standard Webhooks), retried with growing delays until it succeeds or 9 attempts are spent. The answer carries the signing `secret`, shown only this once (an `Idempotency-Key` replay omits it).",
  body: WebhookCreateSchema,
  answer: { description: "Created; `secret` is shown only here", schema: WebhookWithSecretSchema },
  create: createWebhook,
});

const update = updateRoute({
  description:
    "Changes only the fields sent. `events` replaces the list (it must stay non-empty); `status: active` re-enables a disabled subscription; `rotate_secret: true` replaces the signing secret and returns the new one, only in this answer.",
  body: WebhookUpdateSchema,
  answer: {
    description: "Updated; carries `secret` only when `rotate_secret` was true",
    schema: WebhookWithSecretSchema.partial({ secret: true }),
  },
  update: updateWebhook,
});

const remove: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      method: "delete",
      path: `/api/v1${resource.path}/{id}`,
      operationId: "deleteWebhook",
      summary: "Delete a webhook",
      description: "Removes the subscription and its delivery log; pending retries are dropped.",
      tags: [resource.tag],
      scope: "admin",
      params: pathId,
      responses: { 204: { description: "Deleted" } },
    },
    async (c, { params }) => {
      await deleteWebhook(c, params.id);
      return c.body(null, 204);
    },
  );

/** Writes of job webhook subscriptions (docs/webhooks.md), `admin` scope like their reads. */
export const webhookRoutes: MountRoute[] = [subscribe, update, remove];
