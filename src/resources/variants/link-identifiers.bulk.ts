import type { BulkOperation } from "../../async/bulk/operation.ts";
import { products, suppliers, variants } from "../../db/schema/index.ts";
import { identifiersLink, LinkIdentifiersItem } from "./link-identifiers.bulk-processor.ts";
import { variantResource } from "./variants.resource.ts";

/** One operation under two routes: the products and the variants resources both offer it. */
export const linkIdentifiersBulk = {
  type: "identifiers_link",
  routes: [
    { path: "/api/v1/products/link-identifiers", operationId: "linkProductIdentifiers", tag: "Products" },
    { path: "/api/v1/variants/link-identifiers", operationId: "linkVariantIdentifiers", tag: "Variants" },
  ],
  summary: "Link identifiers (asynchronous)",
  description:
    "Assigns merchant internal ids to the one variant (and/or its product) each item matches; no match or an ambiguous one is logged, not linked. Job type `identifiers_link`.",
  itemsKey: "items",
  record: LinkIdentifiersItem,
  // Matched by the variant's declared ean and sku; the internal ids are assigned by hand.
  writes: {
    resource: variantResource,
    relations: {
      supplier_internal_id: suppliers,
      product_internal_id: products,
      variant_internal_id: variants,
    },
  },
  // Demo variants matched by EAN, and by SKU with their supplier's internal id.
  bodyExample: {
    items: [
      { ean: "8400000000017", product_internal_id: "PRD-000001", variant_internal_id: "VAR-0000001" },
      { sku: "HLM-00003-WHT-M", supplier_internal_id: "SUP-0008", variant_internal_id: "VAR-0000009" },
    ],
  },
  processor: identifiersLink,
  invalidates: ["products"],
} satisfies BulkOperation;
