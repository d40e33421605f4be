/*
 * The values of the catalog's enum columns, one constant each: the table, the contract and the bulk
 * record all name it, so a value added here reaches every one of them.
 */

export const PUBLICATION_STATUSES = ["published", "unpublished"] as const;
export const PRODUCT_STRUCTURES = ["simple", "with-variants"] as const;
export const PRODUCT_KINDS = ["physical"] as const;
export const STOCK_MANAGEMENT_MODES = ["default", "deny-without-own-stock"] as const;
export const ONLINE_AVAILABILITIES = ["shipping-only", "pickup-only"] as const;
export const TAX_CATEGORIES = ["standard", "reduced"] as const;
