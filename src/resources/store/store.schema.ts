import { z } from "@hono/zod-openapi";

export const StoreSchema = z
  .object({
    return_policy: z.object({
      applicable_countries: z.array(z.string()),
      return_policy_country: z.string().nullable(),
      return_days: z.number().int().nullable(),
      return_method: z.string().nullable(),
      return_fees: z.string().nullable(),
      refund_type: z.string().nullable(),
      return_label_source: z.string().nullable(),
      item_condition: z.string().nullable(),
    }),
    primary_locale: z.string(),
    enabled_locales: z.array(z.string()),
    markets: z.array(
      z.object({
        key: z.string(),
        currency: z.string(),
        locales: z.array(z.string()),
        countries: z.array(z.string()),
      }),
    ),
    translations: z.record(
      z.string(),
      z.object({
        name: z.string().nullable(),
        domain: z.string().nullable(),
        orders_email_account: z.string().nullable(),
        contact_email_account: z.string().nullable(),
        promotions_email_account: z.string().nullable(),
      }),
    ),
  })
  .openapi("Store");
