import { z } from "@hono/zod-openapi";
import { MKT_STATES } from "../../db/schema/index.ts";

// Most contact fields are free text a contact may leave empty, and `fields=` may leave out.
const nullableText = (description?: string) => {
  const text = z.string().nullable().optional();
  return description === undefined ? text : text.openapi({ description });
};

export const ContactSchema = z
  .object({
    id: z.number().int().openapi({ description: "Fixed field." }),
    internal_id: nullableText("Unique across contacts."),
    is_active: z.boolean().optional(),
    email: z.string().optional().openapi({ description: "Unique across contacts (case-insensitive)." }),
    first_name: nullableText(),
    last_name: nullableText(),
    full_name: nullableText("First and last name joined by a space; null when both are empty."),
    phone: nullableText(),
    preferred_locale: nullableText(),
    customer_type: nullableText("Merchant-defined classification chosen at registration."),
    is_b2b: z.boolean().optional(),
    is_agreed_payment_enabled: z.boolean().optional(),
    is_customer: z
      .boolean()
      .optional()
      .openapi({ description: "Made a purchase or completed a registration." }),
    mkt_state: z.enum(MKT_STATES).optional().openapi({
      description: "Marketing state; only `subscribed` contacts may receive marketing communications.",
    }),
    last_login_at: z.string().nullable().optional().openapi({ example: "2026-01-04T18:22:10Z" }),
    created_at: z.string().optional().openapi({ example: "2025-03-12T09:41:00Z" }),
    orders_count: z.number().int().optional(),
  })
  .openapi("Contact", {
    description:
      "A person who has provided identifying information: a customer, a subscriber, or both. Default fields: `internal_id`, `is_active`, `email`, `first_name`, `last_name`, `full_name`, `phone`, `preferred_locale`.",
    example: {
      id: 7,
      internal_id: "CUS-000007",
      is_active: true,
      email: "lucia.martin@example.com",
      first_name: "Lucía",
      last_name: "Martín",
      full_name: "Lucía Martín",
      phone: "+34 612 345 678",
      preferred_locale: "es-ES",
    },
  });
