/*
 * The values of the enum columns, one constant each: the table, the contract, its filters and the
 * bulk record all name it, so a value added here reaches every one of them.
 */

export const PUBLICATION_STATUSES = ["published", "unpublished"] as const;
export const PRODUCT_STRUCTURES = ["simple", "with-variants"] as const;
export const PRODUCT_KINDS = ["physical"] as const;
export const STOCK_MANAGEMENT_MODES = ["default", "deny-without-own-stock"] as const;
export const ONLINE_AVAILABILITIES = ["shipping-only", "pickup-only"] as const;
export const TAX_CATEGORIES = ["standard", "reduced"] as const;

/** Stored states are `subscribed` and `unsubscribed`; `not_subscribed` is a contact that never chose. */
export const MKT_STATES = ["not_subscribed", "subscribed", "unsubscribed"] as const;
export const PAYMENT_STATUSES = ["paid", "unpaid"] as const;
export const WAREHOUSE_RELEASE_STATUSES = ["not_released", "partially_released", "released"] as const;
export const FULFILLMENT_STATUSES = ["fulfilled", "partially_fulfilled", "unfulfilled"] as const;
export const DELIVERY_METHODS = ["shipment", "store_pick_up"] as const;
export const REVIEW_TYPES = ["product", "store"] as const;
/** What a price list's discount applies to. */
export const DISCOUNT_KINDS = ["category", "brand"] as const;

/** The resources the change feed lists (`GET /api/v1/changes`, `resources=`). */
export const FEED_RESOURCES = [
  "brands",
  "categories",
  "suppliers",
  "products",
  "variants",
  "price_lists",
  "reviews",
] as const;
/** What became of an entity in a change feed entry. */
export const CHANGE_KINDS = ["upserted", "deleted"] as const;
