import { getResource } from "../../conventions/engine.ts";
import { writeQuerySchema } from "../../conventions/query-schema.ts";
import type { MountRoute } from "../../conventions/routes.ts";
import { LOCATION_HEADER } from "../../http/openapi-shared.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { WebhookCreateSchema, WebhookUpdateSchema, WebhookWithSecretSchema } from "./webhooks.schema.ts";
import { createWebhook, deleteWebhook, updateWebhook } from "./webhooks.write.ts";

const subscribe: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      method: "post",
      path: `/api/v1${resource.path}`,
      operationId: "createWebhook",
      summary: "Subscribe to job events",
      description:
        "Creates a subscription. When a job reaches a final state, each active subscription to `job.<status>` receives a signed POST (Standard Webhooks), retried with growing delays until it succeeds or 9 attempts are spent. The answer carries the signing `secret`, shown only this once (an `Idempotency-Key` replay omits it).",
      tags: [resource.tag],
      scope: "admin",
      query: writeQuerySchema(resource),
      body: WebhookCreateSchema,
      responses: {
        201: {
          description: "Created; `secret` is shown only here",
          headers: LOCATION_HEADER,
          content: { "application/json": { schema: WebhookWithSecretSchema } },
        },
      },
    },
    async (c, { query, body }) => {
      const { id, secret } = await createWebhook(c, body);
      const rendered = await getResource(c, resource, id, query);
      return c.json({ ...rendered, secret }, 201, {
        Location: `${new URL(c.req.url).origin}/api/v1${resource.path}/${id}`,
      });
    },
  );

const update: MountRoute = (app, resource) =>
  defineRoute(
    app,
    {
      method: "patch",
      path: `/api/v1${resource.path}/{id}`,
      operationId: "updateWebhook",
      summary: "Update a webhook",
      description:
        "Changes only the fields sent. `events` replaces the list (it must stay non-empty); `status: active` re-enables a disabled subscription; `rotate_secret: true` replaces the signing secret and returns the new one, only in this answer.",
      tags: [resource.tag],
      scope: "admin",
      params: pathId,
      query: writeQuerySchema(resource),
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
      const rendered = await getResource(c, resource, params.id, query);
      return c.json(secret ? { ...rendered, secret } : rendered, 200);
    },
  );

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

/**
 * Writes of job webhook subscriptions (docs/webhooks.md), `admin` scope like their reads. Not the
 * standard create and update: they answer the signing secret when one is made.
 */
export const webhookRoutes: MountRoute[] = [subscribe, update, remove];
