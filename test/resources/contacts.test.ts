import { describe, expect, it } from "vitest";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createContact } from "../support/factories/contacts.ts";

/** `view=customers` restricted to the given ids, plus extra parameters. */
const customers = (contactIds: number[], extra = "") =>
  api(`/api/v1/contacts?view=customers&contact_ids=${contactIds.join(",")}${extra ? `&${extra}` : ""}`);

const DEFAULT_KEYS = [
  "id",
  "internal_id",
  "is_active",
  "email",
  "first_name",
  "last_name",
  "full_name",
  "phone",
  "preferred_locale",
];

describe("contact representation", () => {
  it("returns id and the default fields when fields is absent", async () => {
    const id = await createContact({ firstName: "Lucía", lastName: "Martín", email: "Lucia.M@example.test" });
    const res = await api(`/api/v1/contacts/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      internal_id: `CUS-${id}`,
      is_active: true,
      email: "Lucia.M@example.test",
      first_name: "Lucía",
      last_name: "Martín",
      full_name: "Lucía Martín",
      phone: "+34 600 000 000",
      preferred_locale: "es-ES",
    });
  });

  it("builds full_name from first and last name, trimmed, null when both are empty", async () => {
    const onlyLast = await createContact({ firstName: null, lastName: " Ortega " });
    const onlyFirst = await createContact({ firstName: "Marta", lastName: "" });
    const none = await createContact({ firstName: null, lastName: null });
    expect((await api(`/api/v1/contacts/${onlyLast}`)).json.full_name).toBe("Ortega");
    expect((await api(`/api/v1/contacts/${onlyFirst}`)).json.full_name).toBe("Marta");
    expect((await api(`/api/v1/contacts/${none}`)).json.full_name).toBeNull();
  });

  it("returns id plus exactly the listed non-default fields with fields", async () => {
    const id = await createContact({
      customerType: "Empresa",
      isB2b: true,
      isAgreedPaymentEnabled: true,
      mktState: "subscribed",
      lastLoginAt: "2026-01-20T08:00:00Z",
      ordersCount: 3,
      createdAt: "2025-06-01T12:00:00Z",
    });
    const res = await api(
      `/api/v1/contacts/${id}?fields=customer_type,is_b2b,is_agreed_payment_enabled,is_customer,mkt_state,last_login_at,created_at,orders_count`,
    );
    expect(res.json).toEqual({
      id,
      customer_type: "Empresa",
      is_b2b: true,
      is_agreed_payment_enabled: true,
      is_customer: true,
      mkt_state: "subscribed",
      last_login_at: "2026-01-20T08:00:00Z",
      created_at: "2025-06-01T12:00:00Z",
      orders_count: 3,
    });
    const one = await api(`/api/v1/contacts/${id}?fields=email`);
    expect(one.json).toEqual({ id, email: `contact${id}@example.test` });
  });

  it("answers 404 not_found for an unknown id", async () => {
    const res = await api("/api/v1/contacts/99999999");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });
});

describe("contact views", () => {
  it("requires view: a list without it is 400 invalid_parameter", async () => {
    const res = await api("/api/v1/contacts");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
    expect(res.json.errors).toEqual([{ location: "query", path: "view", message: expect.any(String) }]);
  });

  it("refuses a view other than customers or subscribers, and a repeated view", async () => {
    for (const q of ["view=all", "view=", "view=customers,subscribers", "view=customers&view=subscribers"]) {
      const res = await api(`/api/v1/contacts?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("invalid_parameter");
    }
  });

  it("view=customers lists contacts with is_customer, whatever their marketing state", async () => {
    const a = await createContact({ isCustomer: true, mktState: "not_subscribed" });
    const b = await createContact({ isCustomer: true, mktState: "subscribed" });
    const c = await createContact({ isCustomer: false, mktState: "subscribed" });
    expect(ids(await customers([a, b, c]))).toEqual([a, b]);
  });

  it("view=subscribers lists contacts whose mkt_state is not not_subscribed", async () => {
    const a = await createContact({ isCustomer: true, mktState: "not_subscribed" });
    const b = await createContact({ isCustomer: false, mktState: "subscribed" });
    const c = await createContact({ isCustomer: true, mktState: "unsubscribed" });
    const res = await api(`/api/v1/contacts?view=subscribers&contact_ids=${a},${b},${c}`);
    expect(ids(res)).toEqual([b, c]);
  });

  it("the view does not change the representation", async () => {
    const id = await createContact({ isCustomer: true, mktState: "subscribed" });
    const asCustomer = await api(`/api/v1/contacts?view=customers&contact_ids=${id}`);
    const asSubscriber = await api(`/api/v1/contacts?view=subscribers&contact_ids=${id}`);
    expect(Object.keys(asCustomer.json.data[0])).toEqual(DEFAULT_KEYS);
    expect(asSubscriber.json.data).toEqual(asCustomer.json.data);
    expect(asCustomer.json.data[0]).toEqual((await api(`/api/v1/contacts/${id}`)).json);
  });

  it("a get by id takes no view", async () => {
    const id = await createContact();
    const res = await api(`/api/v1/contacts/${id}?view=customers`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unknown_parameter");
  });
});

describe("contact filters", () => {
  it("matches contact_ids", async () => {
    const a = await createContact();
    const b = await createContact();
    await createContact();
    expect(ids(await api(`/api/v1/contacts?view=customers&contact_ids=${b},${a}`))).toEqual([a, b]);
  });

  it("filters created_at with inclusive bounds and date-only values", async () => {
    const early = await createContact({ createdAt: "2025-02-01T00:00:00Z" });
    const late = await createContact({ createdAt: "2025-02-02T23:59:59Z" });
    const both = [early, late];
    expect(ids(await customers(both, "created_at_from=2025-02-01T00:00:00Z"))).toEqual([early, late]);
    expect(ids(await customers(both, "created_at_to=2025-02-01"))).toEqual([early]);
    expect(ids(await customers(both, "created_at_from=2025-02-02&created_at_to=2025-02-02"))).toEqual([late]);
  });

  it("matches customer_type exactly and case-sensitively", async () => {
    const a = await createContact({ customerType: "Empresa" });
    const b = await createContact({ customerType: "Empresa Plus" });
    const c = await createContact({ customerType: null });
    expect(ids(await customers([a, b, c], "customer_type=Empresa"))).toEqual([a]);
    expect(ids(await customers([a, b, c], "customer_type=empresa"))).toEqual([]);
    const joined = await customers([a], "customer_type=Empresa,Particular");
    expect(joined.status).toBe(400);
    expect(joined.json.code).toBe("invalid_parameter");
  });

  it("matches emails exactly and case-insensitively", async () => {
    const a = await createContact({ email: "Pedro.Lopez@Example.test" });
    const b = await createContact({ email: "pedro.lopez2@example.test" });
    const res = await api(
      `/api/v1/contacts?view=customers&emails=pedro.lopez@example.test,PEDRO.LOPEZ2@EXAMPLE.TEST`,
    );
    expect(ids(res)).toEqual([a, b]);
    expect(ids(await api("/api/v1/contacts?view=customers&emails=pedro.lopez"))).toEqual([]);
  });

  it("accepts at most 200 emails", async () => {
    const emails = (n: number) => Array.from({ length: n }, (_, i) => `e${i}@example.test`).join(",");
    expect((await api(`/api/v1/contacts?view=customers&emails=${emails(200)}`)).status).toBe(200);
    const res = await api(`/api/v1/contacts?view=customers&emails=${emails(201)}`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({ location: "query", path: "emails" });
  });

  it("matches internal_ids exactly", async () => {
    const a = await createContact({ internalId: "CRM-ALPHA" });
    await createContact({ internalId: "CRM-ALPHA-2" });
    expect(ids(await api("/api/v1/contacts?view=customers&internal_ids=CRM-ALPHA,crm-nope"))).toEqual([a]);
  });

  it("matches is_active both ways", async () => {
    const on = await createContact({ isActive: true });
    const off = await createContact({ isActive: false });
    expect(ids(await customers([on, off], "is_active=true"))).toEqual([on]);
    expect(ids(await customers([on, off], "is_active=false"))).toEqual([off]);
    expect((await customers([on], "is_active=1")).status).toBe(400);
  });

  it("matches is_agreed_payment_enabled both ways", async () => {
    const on = await createContact({ isAgreedPaymentEnabled: true });
    const off = await createContact();
    expect(ids(await customers([on, off], "is_agreed_payment_enabled=true"))).toEqual([on]);
    expect(ids(await customers([on, off], "is_agreed_payment_enabled=false"))).toEqual([off]);
  });

  it("matches is_b2b both ways", async () => {
    const on = await createContact({ isB2b: true });
    const off = await createContact();
    expect(ids(await customers([on, off], "is_b2b=true"))).toEqual([on]);
    expect(ids(await customers([on, off], "is_b2b=false"))).toEqual([off]);
  });

  it("matches is_customer both ways within a view", async () => {
    const customer = await createContact({ isCustomer: true, mktState: "subscribed" });
    const subscriber = await createContact({ isCustomer: false, mktState: "subscribed" });
    const q = `/api/v1/contacts?view=subscribers&contact_ids=${customer},${subscriber}`;
    expect(ids(await api(`${q}&is_customer=true`))).toEqual([customer]);
    expect(ids(await api(`${q}&is_customer=false`))).toEqual([subscriber]);
  });

  it("filters last_login_at with inclusive bounds, leaving out contacts that never logged in", async () => {
    const early = await createContact({ lastLoginAt: "2026-02-01T10:00:00Z" });
    const late = await createContact({ lastLoginAt: "2026-02-03T10:00:00Z" });
    const never = await createContact({ lastLoginAt: null });
    const all = [early, late, never];
    expect(ids(await customers(all, "last_login_at_from=2026-02-01T10:00:00Z"))).toEqual([early, late]);
    expect(ids(await customers(all, "last_login_at_to=2026-02-02"))).toEqual([early]);
    expect((await customers(all, "last_login_at_from=2026-02-03&last_login_at_to=2026-02-01")).status).toBe(
      400,
    );
  });

  it("matches mkt_state, several values with OR", async () => {
    const none = await createContact({ mktState: "not_subscribed" });
    const sub = await createContact({ mktState: "subscribed" });
    const unsub = await createContact({ mktState: "unsubscribed" });
    const all = [none, sub, unsub];
    expect(ids(await customers(all, "mkt_state=not_subscribed"))).toEqual([none]);
    expect(ids(await customers(all, "mkt_state=subscribed,unsubscribed"))).toEqual([sub, unsub]);
    expect((await customers(all, "mkt_state=pending")).status).toBe(400);
  });

  it("matches orders_count_min inclusively and refuses 0 and non-integers", async () => {
    const zero = await createContact({ ordersCount: 0 });
    const two = await createContact({ ordersCount: 2 });
    const five = await createContact({ ordersCount: 5 });
    const all = [zero, two, five];
    expect(ids(await customers(all, "orders_count_min=2"))).toEqual([two, five]);
    expect(ids(await customers(all, "orders_count_min=3"))).toEqual([five]);
    for (const bad of ["0", "-1", "1.5", "abc"]) {
      const res = await customers(all, `orders_count_min=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.code, bad).toBe("invalid_parameter");
    }
  });

  it("combines different filters with AND", async () => {
    const a = await createContact({ isB2b: true, isActive: true });
    const b = await createContact({ isB2b: true, isActive: false });
    const c = await createContact({ isB2b: false, isActive: true });
    expect(ids(await customers([a, b, c], "is_b2b=true&is_active=true"))).toEqual([a]);
  });
});

describe("contact sorts", () => {
  it("sorts by id ascending by default, and by id_desc", async () => {
    const a = await createContact();
    const b = await createContact();
    expect(ids(await customers([b, a]))).toEqual([a, b]);
    expect(ids(await customers([a, b], "sort=id_asc"))).toEqual([a, b]);
    expect(ids(await customers([a, b], "sort=id_desc"))).toEqual([b, a]);
  });

  it("sorts by created_at both ways, ties by id in the same direction", async () => {
    const late = await createContact({ createdAt: "2025-05-02T00:00:00Z" });
    const early = await createContact({ createdAt: "2025-05-01T00:00:00Z" });
    const tie = await createContact({ createdAt: "2025-05-01T00:00:00Z" });
    const all = [late, early, tie];
    expect(ids(await customers(all, "sort=created_at_asc"))).toEqual([early, tie, late]);
    expect(ids(await customers(all, "sort=created_at_desc"))).toEqual([late, tie, early]);
  });

  it("sorts by last_login_at both ways, contacts that never logged in last", async () => {
    const never = await createContact({ lastLoginAt: null });
    const late = await createContact({ lastLoginAt: "2026-03-02T00:00:00Z" });
    const early = await createContact({ lastLoginAt: "2026-03-01T00:00:00Z" });
    const all = [never, late, early];
    expect(ids(await customers(all, "sort=last_login_at_asc"))).toEqual([early, late, never]);
    expect(ids(await customers(all, "sort=last_login_at_desc"))).toEqual([late, early, never]);
  });

  it("refuses a sort contacts do not have", async () => {
    const res = await api("/api/v1/contacts?view=customers&sort=name_asc");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });
});

describe("contact parameters", () => {
  it("refuses locales and includes, which contacts do not take, as unknown_parameter", async () => {
    for (const q of ["locales=es-ES", "includes=orders", "colour=red"]) {
      const res = await api(`/api/v1/contacts?view=customers&${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("unknown_parameter");
    }
    const id = await createContact();
    expect((await api(`/api/v1/contacts/${id}?locales=es-ES`)).json.code).toBe("unknown_parameter");
  });

  it("refuses an unknown field name with 400 invalid_parameter", async () => {
    const res = await api("/api/v1/contacts?view=customers&fields=password");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("paginates with totals of the filtered dataset", async () => {
    const made = [await createContact(), await createContact(), await createContact()];
    const res = await customers(made, "per_page=2&page=2");
    expect(res.json.pagination).toMatchObject({ current_page: 2, per_page: 2, total: 3, total_pages: 2 });
    expect(ids(res)).toEqual([made[2]]);
  });
});
