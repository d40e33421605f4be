import { z } from "@hono/zod-openapi";
import { checkOutboundUrl } from "../../http/outbound-guard.ts";
import {
  type EventData,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENTS,
  type WebhookEventName,
} from "./webhooks.events.ts";

const EVENTS_DESCRIPTION = `Events to deliver: ${WEBHOOK_EVENTS.map((event) => `\`${event.name}\` (${event.inShort})`).join(", ")}.`;

const WEBHOOK_EXAMPLE = {
  id: 1,
  url: "https://erp.example.com/hooks/storefront",
  events: WEBHOOK_EVENT_NAMES,
  description: "ERP import monitor",
  status: "active",
  disabled_at: null,
  created_at: "2026-11-22T05:10:32Z",
  updated_at: "2026-11-22T05:10:32Z",
};
const SECRET_EXAMPLE = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/ssYQSBaHOc=";

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string().optional().openapi({ description: "Where deliveries are POSTed." }),
    events: z.array(z.enum(WEBHOOK_EVENT_NAMES)).optional().openapi({ description: EVENTS_DESCRIPTION }),
    description: z.string().nullable().optional(),
    status: z.enum(["active", "disabled"]).optional().openapi({
      description:
        "`disabled` subscriptions receive nothing; a subscription whose deliveries keep failing for 3 days is disabled automatically (PATCH `status: active` re-enables it).",
    }),
    disabled_at: z.string().nullable().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  })
  .openapi("Webhook", {
    description: "A subscription to job events. The signing secret is never shown here.",
    example: WEBHOOK_EXAMPLE,
  });

const secret = z.string().openapi({
  description:
    "The signing secret (`whsec_` + base64 of 32 bytes). Shown only in this answer: store it now. Receivers verify `webhook-signature` with it.",
  example: SECRET_EXAMPLE,
});

export const WebhookWithSecretSchema = WebhookSchema.extend({ secret }).openapi("WebhookWithSecret", {
  description: "A subscription with its signing secret, shown once (creation and secret rotation).",
  example: { ...WEBHOOK_EXAMPLE, secret: SECRET_EXAMPLE },
});

/**
 * The URL rules that hold in every environment (src/http/outbound-guard.ts), checked with the rest of the body
 * so that one 400 lists every problem. Loopback over plain http is allowed only in development:
 * the route checks that part against the running environment.
 */
const webhookUrl = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .superRefine((value, ctx) => {
    const production = checkOutboundUrl(value, { ENVIRONMENT: "production" });
    const development = checkOutboundUrl(value, { ENVIRONMENT: "development" });
    if (!production.ok && !development.ok) ctx.addIssue({ code: "custom", message: production.message });
  })
  .openapi({
    description:
      "An `https` URL (plain `http` only to loopback hosts in local development). Private, link-local, loopback and metadata addresses and URLs with credentials are refused.",
    example: "https://erp.example.com/hooks/storefront",
  });

const events = z
  .array(z.enum(WEBHOOK_EVENT_NAMES, { message: `must be one of ${WEBHOOK_EVENT_NAMES.join(", ")}` }))
  .min(1, "must name at least one event")
  .refine((list) => new Set(list).size === list.length, "must not repeat an event")
  .openapi({ description: EVENTS_DESCRIPTION });

const description = z.string().max(1000, "must be at most 1000 characters").nullable();

export const WebhookCreateSchema = z
  .object({ url: webhookUrl, events, description: description.optional() })
  .strict()
  .openapi("WebhookCreate", {
    example: {
      url: "https://erp.example.com/hooks/storefront",
      events: WEBHOOK_EVENT_NAMES,
      description: "ERP import monitor",
    },
  });

export const WebhookUpdateSchema = z
  .object({
    url: webhookUrl.optional(),
    events: events
      .optional()
      .openapi({ description: `${EVENTS_DESCRIPTION} Replaces the list; \`[]\` is 400.` }),
    description: description.optional(),
    status: z.enum(["active", "disabled"], { message: "must be active or disabled" }).optional().openapi({
      description:
        "`active` re-enables a disabled subscription (and forgets its failing streak); `disabled` pauses it.",
    }),
    rotate_secret: z.boolean().optional().openapi({
      description:
        "`true` replaces the signing secret at once; the answer then carries the new `secret`, shown only there.",
    }),
  })
  .strict()
  .openapi("WebhookUpdate", {
    example: { events: ["job.failed"] satisfies WebhookEventName[], rotate_secret: true },
  });

export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;

export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    event_type: z.enum(WEBHOOK_EVENT_NAMES).optional(),
    job_id: z.string().uuid().optional(),
    attempt: z.number().int().min(1).optional().openapi({ description: "1 for the first attempt." }),
    status: z.enum(["pending", "succeeded", "failed"]).optional().openapi({
      description:
        "`succeeded`: the receiver answered 2xx. `pending`: this attempt failed and another is scheduled at `next_retry_at`. `failed`: this attempt failed and it was the last one.",
    }),
    response_status: z.number().int().nullable().optional().openapi({
      description: "The receiver's HTTP status; null when no answer arrived (see `error`).",
    }),
    error: z.string().nullable().optional().openapi({
      description: "Why the attempt failed without an answer (timeout, refused URL, redirect), else null.",
    }),
    duration_ms: z.number().int().nullable().optional(),
    created_at: z.string().optional().openapi({ description: "When the attempt was made." }),
    next_retry_at: z.string().nullable().optional(),
  })
  .openapi("WebhookDelivery", {
    description: "One delivery attempt. Kept 30 days.",
    example: {
      id: 12,
      event_type: "job.done",
      job_id: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c",
      attempt: 1,
      status: "pending",
      response_status: 503,
      error: null,
      duration_ms: 184,
      created_at: "2026-11-22T05:10:33Z",
      next_retry_at: "2026-11-22T05:11:03Z",
    },
  });

const bodies = new Map<EventData, z.ZodObject>();

/**
 * The body POSTed to a subscription's URL for an event carrying `data`: one component per kind of
 * data, whose `type` lists the events carrying it.
 */
export function eventBodySchema(data: EventData): z.ZodObject {
  const known = bodies.get(data);
  if (known) return known;
  const types = WEBHOOK_EVENTS.filter((event) => event.data === data).map((event) => event.name);
  const body = z
    .object({
      type: z.enum(types).openapi({ description: data.typeDescription }),
      timestamp: z.string().openapi({
        description:
          "When this attempt was signed, ISO 8601 with `Z`: the same instant as `webhook-timestamp`.",
        example: "2026-11-22T05:10:33Z",
      }),
      data: data.schema,
    })
    .openapi(data.component, {
      example: { type: types[0], timestamp: "2026-11-22T05:10:33Z", data: data.example },
    });
  bodies.set(data, body);
  return body;
}

export const WebhookEventHeadersSchema = z.object({
  "webhook-id": z.string().openapi({
    description: "Message id, the same on every retry of one event: deduplicate on it.",
    example: "msg_2b1f4e0c9a7d4f6e8c3b5a1d0e9f8a7b",
  }),
  "webhook-timestamp": z.string().openapi({
    description:
      "Unix seconds when this attempt was signed; reject values far from your clock (e.g. 5 minutes).",
    example: "1795324233",
  }),
  "webhook-signature": z.string().openapi({
    description:
      "`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_` (Standard Webhooks).",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
  "content-type": z.literal("application/json"),
});
