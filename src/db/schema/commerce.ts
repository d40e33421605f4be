import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { brands, categories, products, variants } from "./catalog.ts";
import { bool, createdAt, id, owner, reference, timestamp, updatedAt } from "./columns.ts";
import {
  DELIVERY_METHODS,
  DISCOUNT_KINDS,
  FULFILLMENT_STATUSES,
  MKT_STATES,
  PAYMENT_STATUSES,
  PUBLICATION_STATUSES,
  REVIEW_TYPES,
  WAREHOUSE_RELEASE_STATUSES,
} from "./enums.ts";

export const contacts = sqliteTable(
  "contacts",
  {
    id: id(),
    internalId: text("internal_id"),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    phone: text("phone"),
    preferredLocale: text("preferred_locale"),
    isActive: bool("is_active").notNull().default(true),
    customerType: text("customer_type"),
    isB2b: bool("is_b2b").notNull().default(false),
    isAgreedPaymentEnabled: bool("is_agreed_payment_enabled").notNull().default(false),
    isCustomer: bool("is_customer").notNull().default(false),
    mktState: text("mkt_state", { enum: MKT_STATES }).notNull().default("not_subscribed"),
    lastLoginAt: timestamp("last_login_at"),
    ordersCount: integer("orders_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_internal_id_unique").on(t.internalId),
    uniqueIndex("contacts_email_unique").on(sql`${t.email} COLLATE NOCASE`),
    index("contacts_customer_idx").on(t.isCustomer, t.id),
    index("contacts_mkt_state_idx").on(t.mktState, t.id),
    index("contacts_created_idx").on(t.createdAt, t.id),
    index("contacts_last_login_idx").on(t.lastLoginAt, t.id),
    index("contacts_customer_type_idx").on(t.customerType),
    index("contacts_orders_count_idx").on(t.ordersCount),
  ],
);

type Money = { amount: string; currency: string };

export const orders = sqliteTable(
  "orders",
  {
    id: id(),
    contactId: integer("contact_id").references(() => contacts.id),
    email: text("email").notNull(),
    locale: text("locale").notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull(),
    warehouseReleaseStatus: text("warehouse_release_status", { enum: WAREHOUSE_RELEASE_STATUSES }).notNull(),
    fulfillmentStatus: text("fulfillment_status", { enum: FULFILLMENT_STATUSES }).notNull(),
    deliveryMethod: text("delivery_method", { enum: DELIVERY_METHODS }).notNull(),
    paymentMethod: text("payment_method"),
    paymentGateway: text("payment_gateway"),
    currency: text("currency").notNull(),
    totalGross: text("total_gross").notNull(),
    totalNet: text("total_net").notNull(),
    totalTax: text("total_tax").notNull(),
    shippingGross: text("shipping_gross").notNull(),
    shippingNet: text("shipping_net").notNull(),
    shippingTax: text("shipping_tax").notNull(),
    feesGross: text("fees_gross").notNull(),
    feesNet: text("fees_net").notNull(),
    feesTax: text("fees_tax").notNull(),
    paidAt: timestamp("paid_at"),
    fulfilledAt: timestamp("fulfilled_at"),
    canceledAt: timestamp("canceled_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("orders_created_idx").on(t.createdAt, t.id),
    index("orders_paid_idx").on(t.paidAt),
    index("orders_fulfilled_idx").on(t.fulfilledAt),
    index("orders_contact_idx").on(t.contactId),
    index("orders_payment_status_idx").on(t.paymentStatus, t.createdAt),
    index("orders_fulfillment_status_idx").on(t.fulfillmentStatus, t.createdAt),
    index("orders_release_status_idx").on(t.warehouseReleaseStatus, t.createdAt),
    index("orders_delivery_method_idx").on(t.deliveryMethod, t.createdAt),
    index("orders_canceled_idx").on(t.canceledAt),
  ],
);

/** Order lines are a snapshot: their nested discount and service arrays are stored as JSON as sold. */
export const orderLineItems = sqliteTable(
  "order_line_items",
  {
    id: id(),
    orderId: owner("order_id", () => orders.id),
    position: integer("position").notNull(),
    productId: integer("product_id"),
    variantId: integer("variant_id"),
    sku: text("sku"),
    ean: text("ean"),
    displayName: text("display_name").notNull(),
    taxRate: text("tax_rate").notNull(),
    quantity: integer("quantity").notNull(),
    listPriceGross: text("list_price_gross").notNull(),
    finalPriceGross: text("final_price_gross").notNull(),
    finalPriceNet: text("final_price_net").notNull(),
    totalGross: text("total_gross").notNull(),
    totalNet: text("total_net").notNull(),
    totalTax: text("total_tax").notNull(),
    discountsApplied: text("discounts_applied", { mode: "json" })
      .$type<{ type: string; amount: Money; description: string | null }[]>()
      .notNull(),
    additionalServices: text("additional_services", { mode: "json" })
      .$type<
        {
          display_name: string;
          internal_id: string | null;
          quantity: number;
          unit_price: { gross: Money; net: Money };
          tax_rate: string;
        }[]
      >()
      .notNull(),
  },
  (t) => [index("order_line_items_order_idx").on(t.orderId, t.position)],
);

export const reviews = sqliteTable(
  "reviews",
  {
    id: id(),
    type: text("type", { enum: REVIEW_TYPES }).notNull(),
    locale: text("locale").notNull(),
    status: text("status", { enum: PUBLICATION_STATUSES }).notNull(),
    rating: integer("rating"),
    content: text("content").notNull(),
    reviewerName: text("reviewer_name"),
    reviewerEmail: text("reviewer_email").notNull(),
    orderId: integer("order_id").references(() => orders.id),
    customerId: integer("customer_id").references(() => contacts.id),
    productId: integer("product_id").references(() => products.id),
    variantId: integer("variant_id").references(() => variants.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("reviews_created_idx").on(t.createdAt, t.id),
    index("reviews_rating_idx").on(t.rating, t.id),
    index("reviews_product_idx").on(t.productId, t.createdAt),
    index("reviews_status_idx").on(t.status, t.createdAt),
    index("reviews_locale_idx").on(t.locale, t.createdAt),
    index("reviews_type_idx").on(t.type, t.createdAt),
    // The foreign key's child side: inserting variants in bulk (INSERT … SELECT) plans a search of
    // reviews by variant_id, and without this index that is a scan of every review.
    index("reviews_variant_idx").on(t.variantId),
  ],
);

export const priceLists = sqliteTable(
  "price_lists",
  {
    id: id(),
    internalId: text("internal_id").notNull(),
    isActive: bool("is_active").notNull(),
    globalDiscount: text("global_discount").notNull(),
    minimumOrderAmount: text("minimum_order_amount"),
    minimumOrderCurrency: text("minimum_order_currency"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // The list's rows in price_list_customers and price_list_variant_prices, kept by their triggers
    // (migration 0006) in the same transaction as every insert and delete: a page of price lists
    // reads its counts with its rows instead of every child row. Last, as ALTER TABLE added them.
    customersCount: integer("customers_count").notNull().default(0),
    variantPricesCount: integer("variant_prices_count").notNull().default(0),
  },
  (t) => [
    uniqueIndex("price_lists_internal_id_unique").on(t.internalId),
    index("price_lists_active_idx").on(t.isActive, t.id),
  ],
);

/** A category or brand discount rule of a price list, in request order. */
export const priceListDiscounts = sqliteTable(
  "price_list_discounts",
  {
    id: id(),
    priceListId: owner("price_list_id", () => priceLists.id),
    kind: text("kind", { enum: DISCOUNT_KINDS }).notNull(),
    position: integer("position").notNull(),
    discount: text("discount").notNull(),
  },
  (t) => [index("price_list_discounts_list_idx").on(t.priceListId, t.kind, t.position)],
);

export const priceListDiscountCategories = sqliteTable(
  "price_list_discount_categories",
  {
    discountId: owner("discount_id", () => priceListDiscounts.id),
    categoryId: reference("category_id", () => categories.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.discountId, t.categoryId] })],
);

export const priceListDiscountBrands = sqliteTable(
  "price_list_discount_brands",
  {
    discountId: owner("discount_id", () => priceListDiscounts.id),
    brandId: reference("brand_id", () => brands.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.discountId, t.brandId] })],
);

export const priceListCustomers = sqliteTable(
  "price_list_customers",
  {
    priceListId: owner("price_list_id", () => priceLists.id),
    contactId: owner("contact_id", () => contacts.id),
  },
  (t) => [primaryKey({ columns: [t.priceListId, t.contactId] })],
);

/** Fixed customer-specific price of one variant in one price list (shop currency). */
export const priceListVariantPrices = sqliteTable(
  "price_list_variant_prices",
  {
    priceListId: owner("price_list_id", () => priceLists.id),
    variantId: owner("variant_id", () => variants.id),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    minQuantity: integer("min_quantity").notNull().default(1),
    quantityFactor: integer("quantity_factor").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.priceListId, t.variantId] }),
    index("price_list_variant_prices_variant_idx").on(t.variantId),
  ],
);
