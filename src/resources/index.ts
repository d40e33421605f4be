import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountBulkOperation } from "../async/bulk/bulk.routes.ts";
import type { BulkOperation } from "../async/bulk/operation.ts";
import { mountExportOperation } from "../async/exports/export.routes.ts";
import type { ExportOperation } from "../async/exports/operation.ts";
import { mountResource, type ResourceRoutes } from "../conventions/routes.ts";
import type { AppEnv } from "../env.ts";
import { brandResource } from "./brands/brands.resource.ts";
import { brandRoutes } from "./brands/brands.routes.ts";
import { categoryResource } from "./categories/categories.resource.ts";
import { categoryRoutes } from "./categories/categories.routes.ts";
import { contactResource } from "./contacts/contacts.resource.ts";
import { jobLogResource, jobResource } from "./jobs/jobs.resource.ts";
import { jobRoutes } from "./jobs/jobs.routes.ts";
import { orderResource } from "./orders/orders.resource.ts";
import { priceListResource } from "./price-lists/price-lists.resource.ts";
import { priceListRoutes } from "./price-lists/price-lists.routes.ts";
import { variantPricesBulk } from "./price-lists/variant-prices.bulk.ts";
import { variantPriceResource } from "./price-lists/variant-prices.resource.ts";
import { variantPriceRoutes } from "./price-lists/variant-prices.routes.ts";
import { productsBulk } from "./products/products.bulk.ts";
import { productsExport } from "./products/products.export.ts";
import { productResource } from "./products/products.resource.ts";
import { reviewResource } from "./reviews/reviews.resource.ts";
import { reviewRoutes } from "./reviews/reviews.routes.ts";
import { registerStore } from "./store/store.routes.ts";
import { supplierResource } from "./suppliers/suppliers.resource.ts";
import { supplierRoutes } from "./suppliers/suppliers.routes.ts";
import { linkIdentifiersBulk } from "./variants/link-identifiers.bulk.ts";
import { variantsBulk } from "./variants/variants.bulk.ts";
import { variantsExport } from "./variants/variants.export.ts";
import { variantResource } from "./variants/variants.resource.ts";
import { registerWebhookEvents } from "./webhooks/webhooks.outgoing.ts";
import { webhookDeliveryResource, webhookResource } from "./webhooks/webhooks.resource.ts";
import { webhookRoutes } from "./webhooks/webhooks.routes.ts";

/** A resource's entry: its declaration, the routes it adds, and the bulk operations that write it. */
interface ResourceEntry extends ResourceRoutes {
  /** Mounted after its routes; the jobs consumer dispatches by them too (job-operations.ts). */
  bulk?: readonly BulkOperation[];
  /** Exports of its rows, mounted after its bulk operations (job-operations.ts gathers them). */
  exports?: readonly ExportOperation[];
}

/**
 * Every resource: its declaration, whose standard routes (list and get, or the list under its
 * parent) are served from it, the routes it adds and its bulk operations. Mounted in this order,
 * which is the order of the served document's paths.
 */
export const RESOURCES: ResourceEntry[] = [
  { resource: brandResource, routes: brandRoutes },
  { resource: categoryResource, routes: categoryRoutes },
  { resource: supplierResource, routes: supplierRoutes },
  { resource: productResource, bulk: [productsBulk], exports: [productsExport] },
  { resource: variantResource, bulk: [variantsBulk, linkIdentifiersBulk], exports: [variantsExport] },
  { resource: priceListResource, routes: priceListRoutes },
  { resource: variantPriceResource, routes: variantPriceRoutes, bulk: [variantPricesBulk] },
  { resource: reviewResource, routes: reviewRoutes },
  { resource: contactResource },
  { resource: orderResource },
  { resource: jobResource, routes: jobRoutes },
  { resource: jobLogResource },
  { resource: webhookResource, routes: webhookRoutes },
  { resource: webhookDeliveryResource, routes: [registerWebhookEvents] },
];

/** Mounts the store (a singleton, not a declared resource), then every resource with its bulk operations. */
export function registerResources(app: OpenAPIHono<AppEnv>) {
  registerStore(app);
  for (const entry of RESOURCES) {
    mountResource(app, entry);
    for (const op of entry.bulk ?? []) mountBulkOperation(app, op);
    for (const op of entry.exports ?? []) mountExportOperation(app, op);
  }
}
