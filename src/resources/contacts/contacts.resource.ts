import { eq, gte, ne, type SQL } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import {
  boolFilter,
  dateRangeFilters,
  enumsFilter,
  filter,
  idsFilter,
  stringsFilter,
} from "../../conventions/filters.ts";
import { defineResource } from "../../conventions/resource.ts";
import { contacts, MKT_STATES } from "../../db/schema/index.ts";
import { enumParam, intParam, stringParam } from "../../http/params.ts";
import { ContactSchema } from "./contacts.schema.ts";

type ContactRow = typeof contacts.$inferSelect;

const CONTACT_VIEWS = ["customers", "subscribers"] as const;

/** First and last name joined; null when both are empty. */
function fullName(first: string | null, last: string | null): string | null {
  const joined = [first?.trim(), last?.trim()].filter(Boolean).join(" ");
  return joined === "" ? null : joined;
}

/** A view's condition; migration 0005's contacts triggers count each view's matches with the same one. */
const VIEWS = {
  customers: () => eq(contacts.isCustomer, true),
  subscribers: () => ne(contacts.mktState, "not_subscribed"),
} satisfies Record<(typeof CONTACT_VIEWS)[number], () => SQL>;

/**
 * Contacts (read-only here). `view` picks the population (customers, or anyone with a marketing
 * state) but never the representation; a get by id ignores it.
 */
export const contactResource = defineResource<{ row: ContactRow; item: typeof ContactSchema }>({
  name: "contacts",
  label: "Contact",
  path: "/contacts",
  tag: "Contacts",
  plural: "Contacts",
  item: ContactSchema,
  description:
    "`view` is required: `customers` lists contacts with `is_customer`, `subscribers` contacts whose `mkt_state` is not `not_subscribed`. Both views render contacts the same way.",
  table: contacts,
  idColumn: contacts.id,
  localized: false,
  fields: {
    id: column(contacts.id, "fixed"),
    internal_id: column(contacts.internalId, "default"),
    is_active: column(contacts.isActive, "default"),
    email: column(contacts.email, "default"),
    first_name: column(contacts.firstName, "default"),
    last_name: column(contacts.lastName, "default"),
    full_name: { kind: "default", render: (r) => fullName(r.firstName, r.lastName) },
    phone: column(contacts.phone, "default"),
    preferred_locale: column(contacts.preferredLocale, "default"),
    customer_type: column(contacts.customerType),
    is_b2b: column(contacts.isB2b),
    is_agreed_payment_enabled: column(contacts.isAgreedPaymentEnabled),
    is_customer: column(contacts.isCustomer),
    mkt_state: column(contacts.mktState),
    last_login_at: column(contacts.lastLoginAt),
    created_at: column(contacts.createdAt),
    orders_count: column(contacts.ordersCount),
  },
  filters: {
    view: filter(
      enumParam(
        CONTACT_VIEWS,
        "Required. `customers`: contacts with `is_customer`; `subscribers`: contacts whose `mkt_state` is not `not_subscribed`. The view does not change the representation.",
      ),
      (v) => VIEWS[v](),
      {
        required: true,
        // Kept by the contacts triggers of migration 0005, which repeat the conditions of VIEWS.
        keptCount: (v) => `contacts:${v}`,
      },
    ),
    contact_ids: idsFilter(contacts.id, "Contact ids."),
    ...dateRangeFilters("created_at", contacts.createdAt, "Created"),
    customer_type: filter(stringParam({ description: "Customer type (exact, case-sensitive)." }), (v) =>
      eq(contacts.customerType, v),
    ),
    emails: stringsFilter(contacts.email, "E-mail addresses (exact, case-insensitive).", {
      maxLength: 255,
      caseInsensitive: true,
    }),
    internal_ids: stringsFilter(contacts.internalId, "Contact internal ids (exact)."),
    is_active: boolFilter(contacts.isActive, "Active contacts."),
    is_agreed_payment_enabled: boolFilter(
      contacts.isAgreedPaymentEnabled,
      "Contacts allowed to pay on agreed terms.",
    ),
    is_b2b: boolFilter(contacts.isB2b, "Business contacts."),
    is_customer: boolFilter(contacts.isCustomer, "Contacts who made a purchase or completed a registration."),
    ...dateRangeFilters("last_login_at", contacts.lastLoginAt, "Last logged in"),
    mkt_state: enumsFilter(
      contacts.mktState,
      MKT_STATES,
      "Marketing states (`not_subscribed`, `subscribed`, `unsubscribed`).",
    ),
    orders_count_min: filter(
      intParam({
        min: 1,
        description:
          "Contacts with at least this many orders: a positive integer; 0 is refused since every contact matches it.",
      }),
      (v) => gte(contacts.ordersCount, v),
    ),
  },
  sorts: {
    id: { column: contacts.id },
    created_at: { column: contacts.createdAt },
    last_login_at: { column: contacts.lastLoginAt },
  },
  defaultSort: "id_asc",
});
