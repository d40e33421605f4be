import type { OpenAPIHono } from "@hono/zod-openapi";
import { getResource } from "../../conventions/engine.ts";
import { type ConventionQuery, writeQuerySchema } from "../../conventions/query-schema.ts";
import { mountGet, mountList, mountSubList } from "../../conventions/routes.ts";
import { webhooks } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { registerWebhookEvents } from "./webhooks.events.ts";
import { deliveriesOf, webhookDeliveryResource, webhookResource } from "./webhooks.resource.ts";
import {
  WebhookCreateSchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from "./webhooks.schema.ts";
import { createWebhook, deleteWebhook, updateWebhook } from "./webhooks.write.ts";

const TAG = "Webhooks";

const read = {
  path: "/webhooks",
  tag: TAG,
  item: WebhookSchema,
  plural: "Webhooks",
  singular: "Webhook",
  scope: "admin" as const,
};

/** Job webhook subscriptions and their delivery log (docs/webhooks.md); `admin` scope throughout. */
export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  mountList(app, webhookResource, {
    ...read,
    description: "Subscriptions to job events. Signing secrets are never listed.",
  });
  mountGet(app, webhookResource, read);

  defineRoute(
    app,
    {
      method: "post",
      path: "/api/v1/webhooks",
      operationId: "createWebhook",
      summary: "Subscribe to job events",
      description:
        "Creates a subscription. When a job reaches a final state, each active subscription to `job.<status>` receives a signed POST (Standard Webhooks), retried with growing delays until it succeeds or 9 attempts are spent. The answer carries the signing `secret`, shown only this once (an `Idempotency-Key` replay omits it).",
      tags: [TAG],
      scope: "admin",
      query: writeQuerySchema(webhookResource),
      body: WebhookCreateSchema,
      responses: {
        201: {
          description: "Created; `secret` is shown only here",
          content: { "application/json": { schema: WebhookWithSecretSchema } },
        },
      },
    },
    async (c, { query, body }) => {
      const { id, secret } = await createWebhook(c, body);
      const rendered = await getResource(c, webhookResource, id, query as ConventionQuery);
      return c.json({ ...rendered, secret }, 201, {
        Location: `${new URL(c.req.url).origin}/api/v1/webhooks/${id}`,
      });
    },
  );

  defineRoute(
    app,
    {
      method: "patch",
      path: "/api/v1/webhooks/{id}",
      operationId: "updateWebhook",
      summary: "Update a webhook",
      description:
        "Changes only the fields sent. `events` replaces the list (it must stay non-empty); `status: active` re-enables a disabled subscription; `rotate_secret: true` replaces the signing secret and returns the new one, only in this answer.",
      tags: [TAG],
      scope: "admin",
      params: pathId,
      query: writeQuerySchema(webhookResource),
      body: WebhookUpdateSchema,
      responses: {
        200: {
          description: "Updated; carries `secret` only when `rotate_secret` was true",
          content: { "application/json": { schema: WebhookWithSecretSchema.partial({ secret: true }) } },
        },
      },
    },
    async (c, { params, query, body }) => {
      const { secret } = await updateWebhook(c, params.id, body);
      const rendered = await getResource(c, webhookResource, params.id, query as ConventionQuery);
      return c.json(secret ? { ...rendered, secret } : rendered, 200);
    },
  );

  defineRoute(
    app,
    {
      method: "delete",
      path: "/api/v1/webhooks/{id}",
      operationId: "deleteWebhook",
      summary: "Delete a webhook",
      description: "Removes the subscription and its delivery log; pending retries are dropped.",
      tags: [TAG],
      scope: "admin",
      params: pathId,
      responses: { 204: { description: "Deleted" } },
    },
    async (c, { params }) => {
      await deleteWebhook(c, params.id);
      return c.body(null, 204);
    },
  );

  mountSubList(app, webhookDeliveryResource, {
    path: "/webhooks/{id}/deliveries",
    params: pathId,
    param: "id",
    operationId: "listWebhookDeliveries",
    summary: "List the delivery attempts of a webhook",
    description:
      "One entry per attempt, newest first: event, job, attempt number, the receiver's status or the error, duration and the next retry. Kept 30 days.",
    tag: TAG,
    item: WebhookDeliverySchema,
    scope: "admin",
    parent: { label: "Webhook", table: webhooks, idColumn: webhooks.id },
    belongsTo: (id) => deliveriesOf(id as number),
  });

  registerWebhookEvents(app);
}
