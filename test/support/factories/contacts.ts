import { contacts } from "../../../src/db/schema/index.ts";
import { testDb } from "../test-db.ts";

interface ContactSpec {
  /** Unless told, the next of this factory's ids. */
  id?: number;
  internalId?: string | null;
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  preferredLocale?: string | null;
  isActive?: boolean;
  customerType?: string | null;
  isB2b?: boolean;
  isAgreedPaymentEnabled?: boolean;
  isCustomer?: boolean;
  mktState?: "not_subscribed" | "subscribed" | "unsubscribed";
  lastLoginAt?: string | null;
  ordersCount?: number;
  createdAt?: string;
}

let seq = 500_000;

/** A contact row written straight to D1 (contacts have no create route); customer by default. */
export async function createContact(spec: ContactSpec = {}) {
  const id = spec.id ?? ++seq;
  await testDb()
    .insert(contacts)
    .values({
      id,
      internalId: spec.internalId === undefined ? `CUS-${id}` : spec.internalId,
      email: spec.email ?? `contact${id}@example.test`,
      firstName: spec.firstName === undefined ? "Ana" : spec.firstName,
      lastName: spec.lastName === undefined ? `Ruiz ${id}` : spec.lastName,
      phone: spec.phone === undefined ? "+34 600 000 000" : spec.phone,
      preferredLocale: spec.preferredLocale === undefined ? "es-ES" : spec.preferredLocale,
      isActive: spec.isActive !== false,
      customerType: spec.customerType ?? null,
      isB2b: spec.isB2b === true,
      isAgreedPaymentEnabled: spec.isAgreedPaymentEnabled === true,
      isCustomer: spec.isCustomer !== false,
      mktState: spec.mktState ?? "not_subscribed",
      lastLoginAt: spec.lastLoginAt ?? null,
      ordersCount: spec.ordersCount ?? 0,
      createdAt: spec.createdAt ?? "2026-01-10T10:00:00Z",
    });
  return id;
}
