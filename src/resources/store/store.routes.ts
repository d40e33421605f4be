import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { renderContext } from "../../conventions/engine.ts";
import { localesParam } from "../../conventions/query-schema.ts";
import { jsonIn } from "../../conventions/sql.ts";
import { batch } from "../../db/client.ts";
import { store, storeTranslations } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { defineRoute } from "../../http/route.ts";
import { MARKETS } from "../../lib/locales.ts";
import { StoreSchema } from "./store.schema.ts";

/** The store is a singleton without id: it takes `locales` like every translated resource, nothing else. */
export function registerStore(app: OpenAPIHono<AppEnv>) {
  defineRoute(
    app,
    {
      method: "get",
      path: "/api/v1/store",
      operationId: "getStore",
      summary: "Get the store",
      description:
        "Global configuration and public identity of the shop, with its locales and pricing markets.",
      tags: ["Store"],
      scope: "read",
      // The store's settings are a domain every cached answer reads (src/edge/cache-key.ts).
      cache: { domains: [], echoesUrl: false },
      query: z.object({ locales: localesParam().optional() }).strict(),
      responses: {
        200: { description: "The store", content: { "application/json": { schema: StoreSchema } } },
      },
    },
    async (c, { query }) => {
      const ctx = await renderContext(c, query.locales);
      const [rows, translations] = await batch(c, [
        ctx.db.select().from(store).where(eq(store.id, 1)),
        ctx.db.select().from(storeTranslations).where(jsonIn(storeTranslations.locale, ctx.locales)),
      ]);
      const row = rows[0];
      if (!row) throw notFound("Store");
      const byLocale = new Map(translations.map((t) => [t.locale, t]));
      return c.json({
        return_policy: {
          applicable_countries: row.applicableCountries,
          return_policy_country: row.returnPolicyCountry,
          return_days: row.returnDays,
          return_method: row.returnMethod,
          return_fees: row.returnFees,
          refund_type: row.refundType,
          return_label_source: row.returnLabelSource,
          item_condition: row.itemCondition,
        },
        primary_locale: row.primaryLocale,
        enabled_locales: row.enabledLocales,
        markets: MARKETS.map((m) => ({
          key: m.key,
          currency: m.currency,
          locales: m.locales,
          countries: m.countries,
        })),
        translations: Object.fromEntries(
          ctx.locales.map((locale) => {
            const t = byLocale.get(locale);
            return [
              locale,
              {
                name: t?.name ?? null,
                domain: t?.domain ?? null,
                orders_email_account: t?.ordersEmailAccount ?? null,
                contact_email_account: t?.contactEmailAccount ?? null,
                promotions_email_account: t?.promotionsEmailAccount ?? null,
              },
            ];
          }),
        ),
      });
    },
  );
}
