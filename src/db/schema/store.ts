import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns.ts";

/** The single store row (id is always 1). */
export const store = sqliteTable("store", {
  id: integer("id").primaryKey(),
  primaryLocale: text("primary_locale").notNull(),
  enabledLocales: text("enabled_locales", { mode: "json" }).$type<string[]>().notNull(),
  applicableCountries: text("applicable_countries", { mode: "json" }).$type<string[]>().notNull(),
  returnPolicyCountry: text("return_policy_country"),
  returnDays: integer("return_days"),
  returnMethod: text("return_method"),
  returnFees: text("return_fees"),
  refundType: text("refund_type"),
  returnLabelSource: text("return_label_source"),
  itemCondition: text("item_condition"),
  updatedAt: updatedAt(),
});

export const storeTranslations = sqliteTable(
  "store_translations",
  {
    locale: text("locale").notNull(),
    name: text("name"),
    domain: text("domain"),
    ordersEmailAccount: text("orders_email_account"),
    contactEmailAccount: text("contact_email_account"),
    promotionsEmailAccount: text("promotions_email_account"),
  },
  (t) => [primaryKey({ columns: [t.locale] })],
);
