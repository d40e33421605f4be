import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import {
  contacts,
  jobLogs,
  jobs,
  orders,
  priceListVariantPrices,
  webhookDeliveries,
  webhooks,
} from "../../src/db/schema/index.ts";
import { api } from "../support/api.ts";
import {
  createBrandRow,
  createCategoryRow,
  createProduct,
  createSupplierRow,
} from "../support/factories/catalog.ts";
import { unique } from "../support/unique.ts";

type Id = number | string;

/**
 * Three rows of one resource for the convention suite (test/conventions/conventions.test.ts), created in order:
 * their ids increase and every other sort's value decreases (names Z, Y, X; dates from the 20th
 * down), so every sort but the id's lists them in reverse. A sub-resource's rows share one parent;
 * the first row has a related row for each include.
 */
export interface Fixture {
  create: () => Promise<{ ids: Id[]; parentId?: Id }>;
  /** What every list request carries (a required filter). */
  query?: string;
  /** An id no row has (a sub-resource: no parent). */
  missingId?: string;
}

const db = () => drizzle(env.DB);
const ROWS = [0, 1, 2];
const letter = (i: number) => String.fromCharCode(90 - i);
const day = (i: number) => `2026-01-${20 - i}T10:00:00Z`;

/** Creates the rows one after the other, so their ids come in order. */
async function inOrder<T>(make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const i of ROWS) out.push(await make(i));
  return out;
}

async function posted(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await api(`/api/v1${path}`, { method: "POST", body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.json.id;
}

const contactRow = async (i: number) => {
  const [row] = await db()
    .insert(contacts)
    .values({
      email: `${unique("conv")}@example.test`,
      firstName: `Conv ${letter(i)}`,
      isCustomer: true,
      createdAt: day(i),
      lastLoginAt: day(i),
    })
    .returning({ id: contacts.id });
  if (!row) throw new Error("no contact inserted");
  return row.id;
};

const jobRow = async (i: number) => {
  const id = crypto.randomUUID();
  await db()
    .insert(jobs)
    .values({ id, type: "products_bulk_upsert", status: "done", params: {}, createdAt: day(i) });
  return id;
};

const webhookRow = async () => {
  const [row] = await db()
    .insert(webhooks)
    .values({ url: "https://hooks.example.test/conv", events: ["job.done"], secret: unique("whsec") })
    .returning({ id: webhooks.id });
  if (!row) throw new Error("no webhook inserted");
  return row.id;
};

const named = (i: number) => ({ "es-ES": `Conv ${letter(i)}` });

/** By resource name; the suite checks every entry of RESOURCES has one. */
export const FIXTURES: Record<string, Fixture> = {
  brands: {
    create: async () => ({
      ids: await inOrder((i) =>
        posted("/brands", { name: `Conv ${letter(i)} ${unique("b")}`, translations: {} }),
      ),
    }),
  },
  categories: {
    create: async () => ({
      ids: await inOrder((i) =>
        posted("/categories", {
          status: "published",
          translations: { "es-ES": { name: `Conv ${letter(i)}` } },
        }),
      ),
    }),
  },
  suppliers: {
    create: async () => ({
      ids: await inOrder((i) =>
        posted("/suppliers", { name: `Conv ${letter(i)}`, internal_id: unique("S") }),
      ),
    }),
  },
  products: {
    create: async () => {
      const related = {
        supplierId: await createSupplierRow(),
        brandId: await createBrandRow(),
        categoryIds: [await createCategoryRow()],
      };
      const ids = await inOrder(async (i) => {
        const product = await createProduct({
          ...(i === 0 ? related : {}),
          names: named(i),
          createdAt: day(i),
          updatedAt: day(i),
        });
        return product.id;
      });
      return { ids };
    },
  },
  variants: {
    create: async () => {
      const product = await createProduct({ variants: ROWS.map((i) => ({ names: named(i) })) });
      return { ids: product.variantIds, parentId: product.id };
    },
  },
  "price-lists": {
    create: async () => {
      const categoryId = await createCategoryRow();
      const ids = await inOrder((i) =>
        posted("/price-lists", {
          internal_id: unique("PL"),
          is_active: true,
          global_discount: "0",
          category_discounts: i === 0 ? [{ categories: [categoryId], discount: "5" }] : [],
          brand_discounts: [],
        }),
      );
      return { ids };
    },
  },
  "price-list-variant-prices": {
    create: async () => {
      const listId = await posted("/price-lists", {
        internal_id: unique("PL"),
        is_active: true,
        global_discount: "0",
        category_discounts: [],
        brand_discounts: [],
      });
      const { variantIds } = await createProduct({ variants: ROWS.map(() => ({})) });
      await db()
        .insert(priceListVariantPrices)
        .values(
          variantIds.map((variantId) => ({
            priceListId: listId,
            variantId,
            amount: "9.50",
            currency: "EUR",
          })),
        );
      return { ids: variantIds, parentId: listId };
    },
  },
  reviews: {
    create: async () => ({
      ids: await inOrder((i) =>
        posted("/reviews", {
          type: "store",
          locale: "es-ES",
          content: `Conv ${letter(i)}`,
          reviewer_email: "conv@example.test",
          rating: 5 - i,
          created_at: day(i),
        }),
      ),
    }),
  },
  contacts: {
    create: async () => ({ ids: await inOrder(contactRow) }),
    query: "view=customers",
  },
  orders: {
    create: async () => {
      const contactId = await contactRow(0);
      const ids = await inOrder(async (i) => {
        const [row] = await db()
          .insert(orders)
          .values({
            contactId: i === 0 ? contactId : null,
            email: "buyer@example.test",
            locale: "es-ES",
            paymentStatus: "paid",
            warehouseReleaseStatus: "released",
            fulfillmentStatus: "fulfilled",
            deliveryMethod: "shipment",
            currency: "EUR",
            totalGross: "12.10",
            totalNet: "10",
            totalTax: "2.10",
            shippingGross: "0",
            shippingNet: "0",
            shippingTax: "0",
            feesGross: "0",
            feesNet: "0",
            feesTax: "0",
            createdAt: day(i),
          })
          .returning({ id: orders.id });
        if (!row) throw new Error("no order inserted");
        return row.id;
      });
      return { ids };
    },
  },
  jobs: {
    create: async () => ({ ids: await inOrder(jobRow) }),
    missingId: "00000000-0000-4000-8000-000000000000",
  },
  job_logs: {
    create: async () => {
      const jobId = await jobRow(0);
      const ids = await inOrder(async (i) => {
        const [row] = await db()
          .insert(jobLogs)
          .values({ jobId, severity: "INFO", message: `Conv ${letter(i)}`, createdAt: day(i) })
          .returning({ id: jobLogs.id });
        if (!row) throw new Error("no log inserted");
        return row.id;
      });
      return { ids, parentId: jobId };
    },
    missingId: "00000000-0000-4000-8000-000000000000",
  },
  webhooks: {
    create: async () => ({ ids: await inOrder(webhookRow) }),
  },
  webhook_deliveries: {
    create: async () => {
      const webhookId = await webhookRow();
      const ids = await inOrder(async (i) => {
        const [row] = await db()
          .insert(webhookDeliveries)
          .values({
            webhookId,
            messageId: unique("msg"),
            eventType: "job.done",
            jobId: crypto.randomUUID(),
            attempt: 1,
            status: "succeeded",
            createdAt: day(i),
          })
          .returning({ id: webhookDeliveries.id });
        if (!row) throw new Error("no delivery inserted");
        return row.id;
      });
      return { ids, parentId: webhookId };
    },
  },
};
