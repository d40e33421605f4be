import type { MKT_STATES } from "../db/schema/enums.ts";
import type { Locale } from "../lib/locales.ts";
import { seedTime } from "./clock.ts";
import contactNames from "./contact-names.json" with { type: "json" };
import { contactCount, orderCount } from "./layout.ts";
import { type Rng, rngFor } from "./rng.ts";
import { insertRows, type Row, type SeedStatement } from "./sql.ts";

type MktState = (typeof MKT_STATES)[number];

/** What other seed modules (orders) read of a contact. */
export interface SeedContact {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  preferredLocale: Locale | null;
  isCustomer: boolean;
  /** Minutes after the seed epoch (negative: before it). */
  createdMinutes: number;
  row: Row;
}

const DAY = 24 * 60;

/** Preferred locales, weighted toward the Spanish store's home market. */
const LOCALE_WEIGHTS: [Locale, number][] = [
  ["es-ES", 34],
  ["ca-ES", 8],
  ["en-GB", 10],
  ["fr-FR", 8],
  ["de-DE", 8],
  ["it-IT", 6],
  ["pt-PT", 6],
  ["nl-NL", 4],
  ["pl-PL", 3],
  ["sv-SE", 3],
  ["da-DK", 2],
  ["el-GR", 3],
  ["hr-HR", 2],
  ["ru-RU", 3],
];

/** Names by language (in Latin script, as shops usually store them), and a phone prefix. */
const PEOPLE: Record<string, { first: string[]; last: string[]; phone: string }> = contactNames.people;

const EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example"];
/** Merchant-defined customer types (exact, case-sensitive values). */
const B2C_TYPES = ["Particular", "Particular", "Particular", "VIP"];
const B2B_TYPES = ["Empresa", "Autónomo", "Distribuidor"];

interface Role {
  isCustomer: boolean;
  mkt: MktState;
  isB2b?: boolean;
  agreed?: boolean;
  inactive?: boolean;
  neverLoggedIn?: boolean;
}

/** The first contacts cover every combination a client filters on, whatever the scale. */
const COVERAGE: Role[] = [
  { isCustomer: true, mkt: "subscribed" },
  { isCustomer: true, mkt: "not_subscribed" },
  { isCustomer: true, mkt: "unsubscribed", isB2b: true, agreed: true },
  { isCustomer: false, mkt: "subscribed" },
  { isCustomer: true, mkt: "subscribed", isB2b: true },
  { isCustomer: false, mkt: "unsubscribed" },
  { isCustomer: true, mkt: "not_subscribed", inactive: true },
  { isCustomer: true, mkt: "subscribed", neverLoggedIn: true },
  { isCustomer: false, mkt: "subscribed", inactive: true },
  { isCustomer: true, mkt: "not_subscribed", isB2b: true, agreed: true },
];

function randomRole(rng: Rng): Role {
  if (rng.chance(0.3)) return { isCustomer: false, mkt: rng.chance(0.75) ? "subscribed" : "unsubscribed" };
  const r = rng.next();
  const mkt: MktState = r < 0.45 ? "subscribed" : r < 0.8 ? "not_subscribed" : "unsubscribed";
  const isB2b = rng.chance(0.18);
  return {
    isCustomer: true,
    mkt,
    isB2b,
    agreed: isB2b && rng.chance(0.5),
    inactive: rng.chance(0.07),
    neverLoggedIn: rng.chance(0.12),
  };
}

function weightedLocale(rng: Rng): Locale {
  const total = LOCALE_WEIGHTS.reduce((n, [, w]) => n + w, 0);
  let r = rng.int(1, total);
  for (const [locale, weight] of LOCALE_WEIGHTS) {
    r -= weight;
    if (r <= 0) return locale;
  }
  return "es-ES";
}

/** ASCII local part of an e-mail address ("Lucía Martín" → "lucia.martin"). */
const emailPart = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ø/g, "o")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");

const pad = (n: number, width: number) => String(n).padStart(width, "0");

const memo = new Map<number, { contacts: SeedContact[]; owners: (number | null)[] }>();

/**
 * Contacts and who placed each order, computed once per scale. Every contact with an order is a
 * customer; about one order in eight is a guest checkout (no contact).
 */
function build(scale: number) {
  const cached = memo.get(scale);
  if (cached) return cached;
  const rng = rngFor("contacts");
  const count = contactCount(scale);
  const emails = new Set<string>();
  const contacts: SeedContact[] = [];
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const role = COVERAGE[i] ?? randomRole(rng);
    const locale = weightedLocale(rng);
    const people = PEOPLE[locale.slice(0, 2)] ?? (PEOPLE.es as (typeof PEOPLE)[string]);
    // Subscribers who never registered often left only an e-mail address.
    const named = role.isCustomer || rng.chance(0.4);
    const firstName = named ? rng.pick(people.first) : null;
    const lastName = named ? rng.pick(people.last) : null;
    let local =
      firstName && lastName ? `${emailPart(firstName)}.${emailPart(lastName)}` : `news${pad(id, 5)}`;
    const domain = rng.pick(EMAIL_DOMAINS);
    if (emails.has(`${local}@${domain}`)) local = `${local}${id}`;
    const email = `${local}@${domain}`;
    emails.add(email);
    // Older ids registered earlier, with jitter so created_at order differs from id order.
    const createdMinutes = Math.round(-720 * DAY + (i / count) * 690 * DAY + rng.int(-5 * DAY, 5 * DAY));
    const lastLogin =
      role.isCustomer && !role.neverLoggedIn
        ? seedTime(Math.min(-60, createdMinutes + rng.int(DAY, Math.max(2 * DAY, -createdMinutes))))
        : null;
    const customerType = role.isCustomer ? rng.pick(role.isB2b ? B2B_TYPES : B2C_TYPES) : null;
    const phone =
      role.isCustomer && rng.chance(0.75)
        ? `${people.phone}${pad(rng.int(0, 99), 2)} ${pad(rng.int(0, 999), 3)} ${pad(rng.int(0, 999), 3)}`
        : null;
    const created = seedTime(createdMinutes);
    const preferredLocale = role.isCustomer || rng.chance(0.5) ? locale : null;
    contacts.push({
      id,
      email,
      firstName,
      lastName,
      preferredLocale,
      isCustomer: role.isCustomer,
      createdMinutes,
      row: {
        id,
        internal_id: role.isCustomer ? `CUS-${pad(id, 6)}` : null,
        email,
        first_name: firstName,
        last_name: lastName,
        phone,
        preferred_locale: preferredLocale,
        is_active: role.inactive ? 0 : 1,
        customer_type: customerType,
        is_b2b: role.isB2b ? 1 : 0,
        is_agreed_payment_enabled: role.agreed ? 1 : 0,
        is_customer: role.isCustomer ? 1 : 0,
        mkt_state: role.mkt,
        last_login_at: lastLogin,
        orders_count: 0,
        created_at: created,
        updated_at: lastLogin && lastLogin > created ? lastLogin : created,
      },
    });
  }

  // Who placed each order: a few loyal customers place many (skewed pick), some none.
  const ownerRng = rngFor("order-owners");
  const customers = contacts.filter((c) => c.isCustomer);
  const owners: (number | null)[] = [];
  for (let o = 0; o < orderCount(scale); o++) {
    const guest = customers.length === 0 || ownerRng.chance(0.12);
    const owner = guest ? undefined : customers[Math.floor(customers.length * ownerRng.next() ** 1.7)];
    owners.push(owner ? owner.id : null);
    if (owner) owner.row.orders_count = (owner.row.orders_count as number) + 1;
  }
  const built = { contacts, owners };
  memo.set(scale, built);
  return built;
}

/** The seeded contacts (ids 1..contactCount), for modules that reference them. */
export const seedContacts = (scale: number): readonly SeedContact[] => build(scale).contacts;

/** The contact id that placed order `orderId` (1-based), or null for a guest checkout. */
export const contactOfOrder = (scale: number, orderId: number): number | null =>
  build(scale).owners[orderId - 1] ?? null;

/**
 * `contactCount(scale)` contacts: customers, subscribers and both, in every marketing state; B2B
 * and private, active and inactive, with and without logins. `orders_count` matches the orders
 * `orderStatements(scale)` writes for each contact.
 */
export function contactStatements(scale: number): SeedStatement[] {
  return insertRows(
    "contacts",
    build(scale).contacts.map((c) => c.row),
  );
}
