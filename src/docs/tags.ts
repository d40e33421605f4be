/**
 * One entry per operation tag, in the order the reference shows them. An operation whose tag is
 * missing here still appears, but test/http/openapi.test.ts and the OpenAPI linter flag it.
 */
export const TAGS: Record<string, string> = {
  Store: "The shop's global configuration and public identity: locales, markets, domains, return policy.",
  Brands: "Manufacturers and commercial brands, for catalog organization, filtering and SEO.",
  Categories: "The category tree (names and slugs per locale) used for navigation, filtering and SEO.",
  Products:
    "Catalog listings that group one or more variants. Bulk upsert and identifier linking run as jobs (202).",
  Variants:
    "Purchasable SKUs of a product, with stock and prices per market. Bulk update and identifier linking run as jobs (202).",
  Suppliers: "Companies that provide products, for stock sourcing, purchasing and reporting.",
  "Price lists":
    "Customer-specific conditions: global, category and brand discounts, a minimum order amount and fixed variant prices.",
  Contacts: "People who gave identifying information: customers, subscribers or both (`view` selects which).",
  Orders: "Read-only snapshots of purchase attempts, with line items and an optional `customer` include.",
  Reviews: "Customer feedback about a product (optionally one variant) or about the store.",
  Jobs: "Asynchronous bulk operations: status, counters and per-record logs. Kept 5 days when `done`, 30 days otherwise.",
  Changes:
    "The change feed: which catalog entities each commit changed, in commit order, for incremental synchronization. Entries kept at least 7 days.",
  Webhooks:
    "Subscriptions notified when a job reaches a final state (Standard Webhooks signatures), and their delivery attempts. Needs the `admin` scope.",
  Health: "Whether the service and its stores answer, and the deployed version; public, no API key needed.",
  Images: "Copies of brand and category images stored by the service; public, no API key needed.",
};
