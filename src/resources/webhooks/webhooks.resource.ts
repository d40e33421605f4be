import { column } from "../../conventions/column-field.ts";
import { filter } from "../../conventions/filters.ts";
import { defineResource } from "../../conventions/resource.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { webhookDeliveries, webhooks } from "../../db/schema/index.ts";
import { enumItem, listParam } from "../../http/params.ts";
import { pathId } from "../../http/route.ts";
import type { WebhookEventName } from "./webhooks.events.ts";
import { WebhookDeliverySchema, WebhookSchema } from "./webhooks.schema.ts";

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A subscription; its `secret` is stored to sign deliveries and never rendered. */
export const webhookResource = defineResource<{ row: WebhookRow; item: typeof WebhookSchema }>({
  name: "webhooks",
  label: "Webhook",
  path: "/webhooks",
  tag: "Webhooks",
  plural: "Webhooks",
  item: WebhookSchema,
  description: "Subscriptions to job events. Signing secrets are never listed.",
  scope: "admin",
  table: webhooks,
  idColumn: webhooks.id,
  localized: false,
  fields: {
    id: column(webhooks.id, "fixed"),
    url: column(webhooks.url, "default"),
    events: column<typeof webhooks.events, WebhookEventName[]>(webhooks.events, "default"),
    description: column(webhooks.description, "default"),
    // Not a plain column: writing it sets or clears `disabled_at` too (webhooks.write.ts).
    status: { kind: "default", render: (r) => r.status },
    disabled_at: column(webhooks.disabledAt, "default"),
    created_at: column(webhooks.createdAt, "default"),
    updated_at: column(webhooks.updatedAt, "default"),
  },
  sorts: { id: { column: webhooks.id } },
  defaultSort: "id_asc",
});

/** One attempt of one delivery, newest first by default. */
export const webhookDeliveryResource = defineResource<{
  row: DeliveryRow;
  item: typeof WebhookDeliverySchema;
}>({
  name: "webhook_deliveries",
  label: "Webhook delivery",
  path: "/webhooks/{id}/deliveries",
  tag: "Webhooks",
  plural: "Deliveries",
  item: WebhookDeliverySchema,
  description:
    "One entry per attempt, newest first: event, job, attempt number, the receiver's status or the error, duration and the next retry. Kept 30 days.",
  scope: "admin",
  parent: {
    label: "Webhook",
    table: webhooks,
    idColumn: webhooks.id,
    params: pathId,
    column: webhookDeliveries.webhookId,
    summary: "List the delivery attempts of a webhook",
  },
  table: webhookDeliveries,
  idColumn: webhookDeliveries.id,
  localized: false,
  fields: {
    id: column(webhookDeliveries.id, "fixed"),
    event_type: column<typeof webhookDeliveries.eventType, WebhookEventName>(
      webhookDeliveries.eventType,
      "default",
    ),
    job_id: column(webhookDeliveries.jobId, "default"),
    attempt: column(webhookDeliveries.attempt, "default"),
    status: column(webhookDeliveries.status, "default"),
    response_status: column(webhookDeliveries.responseStatus, "default"),
    error: column(webhookDeliveries.error, "default"),
    duration_ms: column(webhookDeliveries.durationMs, "default"),
    created_at: column(webhookDeliveries.createdAt, "default"),
    next_retry_at: column(webhookDeliveries.nextRetryAt, "default"),
  },
  filters: {
    status: filter(
      listParam(enumItem(["pending", "succeeded", "failed"] as const), {
        itemType: "string",
        max: 3,
        description: "Attempt statuses.",
      }),
      (v) => jsonIn(webhookDeliveries.status, v),
    ),
    job_ids: filter(
      listParam(
        (raw) =>
          /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(raw)
            ? { ok: true, value: raw.toLowerCase() }
            : { ok: false, message: "is not a UUID" },
        { itemType: "string", max: 200, description: "Job ids." },
      ),
      (v) => jsonIn(webhookDeliveries.jobId, v),
    ),
  },
  sorts: { created_at: { column: webhookDeliveries.createdAt } },
  defaultSort: "created_at_desc",
});
