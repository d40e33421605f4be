import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { batch } from "../../db/client.ts";
import { priceLists } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { defineRoute, pathId } from "../../http/route.ts";
import { acceptBulkJob } from "./accept.ts";
import { ChunkPlanner } from "./chunking.ts";
import { LinkIdentifiersItem } from "./processors/identifiers-link.ts";
import { VARIANT_MATCH_BY } from "./processors/match-variants.ts";
import { PRICE_MATCH_BY, PriceListPriceRecord } from "./processors/price-list-prices.ts";
import { PRODUCT_MATCH_BY, ProductUpsertRecord } from "./processors/product-record.ts";
import { VariantUpdateRecord } from "./processors/variants-update.ts";

/**
 * Accept-time checks only: a JSON object, required top-level keys with the right
 * types, non-empty arrays of objects, a fully valid `options`, no unknown top-level keys. Everything
 * inside a record is checked later by the job. The documented record shapes (`bodyDoc`) are the
 * schemas the job validates each record with.
 */
const Accepted = z
  .array(z.object({ job_id: z.string().uuid(), status: z.literal("pending") }))
  .openapi("JobAccepted", {
    example: [{ job_id: "5f0c6f0e-8a56-4a5e-9a8e-1f6f3f0f2b1c", status: "pending" }],
  });

const accepted = {
  202: {
    description: "Accepted and queued; read the outcome from the job and its logs.",
    content: { "application/json": { schema: Accepted } },
  },
};

const bulkRoute = {
  method: "post" as const,
  scope: "write" as const,
  bodyLimit: "bulk" as const,
  budget: "bulk" as const,
};

/**
 * The records array of a bulk body, checked at accept time without parsing a record: the body
 * decoder hands its elements to a ChunkPlanner by byte range (src/http/json-body.ts), and this
 * schema checks only what acceptance needs: non-empty, every element an object.
 */
const recordsArray = () =>
  z
    .custom<ChunkPlanner>((value) => value instanceof ChunkPlanner, {
      message: "must be an array of objects",
    })
    .superRefine((planner, ctx) => {
      if (planner.total === 0) ctx.addIssue({ code: "custom", message: "must not be empty" });
      for (const index of planner.nonObjects) {
        ctx.addIssue({ code: "custom", path: [index], message: "must be an object" });
      }
      const unlisted = planner.nonObjectCount - planner.nonObjects.length;
      if (unlisted > 0)
        ctx.addIssue({ code: "custom", message: `${unlisted} more elements are not objects` });
    });

/** The route options of a bulk body whose records are the array at `key`. */
const recordsAt = (key: string) => ({ bodyRecords: { key, sink: () => new ChunkPlanner() } });

export function registerBulkRoutes(app: OpenAPIHono<AppEnv>) {
  const ProductsBody = z
    .object({
      products: recordsArray(),
      options: z.object({ match_by: z.enum(PRODUCT_MATCH_BY) }).strict(),
    })
    .strict()
    .openapi("ProductsBulkRequest");
  defineRoute(
    app,
    {
      ...bulkRoute,
      ...recordsAt("products"),
      path: "/api/v1/products/bulk",
      operationId: "bulkUpsertProducts",
      summary: "Bulk upsert products (asynchronous)",
      description:
        "Creates or updates up to 10 MB of products with nested variants as a job (type `products_bulk_upsert`).",
      tags: ["Products"],
      body: ProductsBody,
      bodyDoc: z.object({
        products: z.array(ProductUpsertRecord).min(1),
        options: z.object({ match_by: z.enum(PRODUCT_MATCH_BY) }),
      }),
      responses: accepted,
    },
    (c, { body }) => acceptBulkJob(c, "products_bulk_upsert", body.products, { options: body.options }),
  );

  const VariantsBody = z
    .object({
      variants: recordsArray(),
      options: z.object({ match_by: z.enum(VARIANT_MATCH_BY) }).strict(),
    })
    .strict()
    .openapi("VariantsBulkRequest");
  defineRoute(
    app,
    {
      ...bulkRoute,
      ...recordsAt("variants"),
      path: "/api/v1/variants/bulk",
      operationId: "bulkUpdateVariants",
      summary: "Bulk update variants (asynchronous)",
      description:
        "Updates existing variants as a job (type `variants_bulk_update`); variants are created through the products bulk upsert.",
      tags: ["Variants"],
      body: VariantsBody,
      bodyDoc: z.object({
        variants: z.array(VariantUpdateRecord).min(1),
        options: z.object({ match_by: z.enum(VARIANT_MATCH_BY) }),
      }),
      responses: accepted,
    },
    (c, { body }) => acceptBulkJob(c, "variants_bulk_update", body.variants, { options: body.options }),
  );

  const PricesBody = z
    .object({
      prices: recordsArray(),
      options: z.object({ match_by: z.enum(PRICE_MATCH_BY), mode: z.enum(["upsert", "delete"]) }).strict(),
    })
    .strict()
    .openapi("PriceListPricesBulkRequest");
  defineRoute(
    app,
    {
      ...bulkRoute,
      ...recordsAt("prices"),
      path: "/api/v1/price-lists/{id}/variant-prices/bulk",
      operationId: "bulkUpdatePriceListVariantPrices",
      summary: "Bulk update fixed variant prices of a price list (asynchronous)",
      description:
        "`upsert` creates new prices and updates existing ones (prices absent from the payload stay); `delete` removes the listed prices. Job type `price_list_variant_prices_bulk_update`.",
      tags: ["Price lists"],
      params: pathId,
      body: PricesBody,
      bodyDoc: z.object({
        prices: z.array(PriceListPriceRecord).min(1),
        options: z.object({ match_by: z.enum(PRICE_MATCH_BY), mode: z.enum(["upsert", "delete"]) }),
      }),
      responses: accepted,
    },
    async (c, { params, body }) => {
      const [found] = await batch(c, [
        c.get("db").select({ id: priceLists.id }).from(priceLists).where(eq(priceLists.id, params.id)),
      ]);
      if (found.length === 0) throw notFound("Price list");
      return acceptBulkJob(c, "price_list_variant_prices_bulk_update", body.prices, {
        options: body.options,
        price_list_id: params.id,
      });
    },
  );

  const LinkBody = z
    .object({
      items: recordsArray(),
    })
    .strict()
    .openapi("LinkIdentifiersRequest");
  for (const [path, operationId, tag] of [
    ["/api/v1/products/link-identifiers", "linkProductIdentifiers", "Products"],
    ["/api/v1/variants/link-identifiers", "linkVariantIdentifiers", "Variants"],
  ] as const) {
    defineRoute(
      app,
      {
        ...bulkRoute,
        ...recordsAt("items"),
        path,
        operationId,
        summary: "Link identifiers (asynchronous)",
        description:
          "Assigns merchant internal ids to the one variant (and/or its product) each item matches; no match or an ambiguous one is logged, not linked. Job type `identifiers_link`.",
        tags: [tag],
        body: LinkBody,
        bodyDoc: z.object({ items: z.array(LinkIdentifiersItem).min(1) }),
        responses: accepted,
      },
      (c, { body }) => acceptBulkJob(c, "identifiers_link", body.items, {}),
    );
  }
}
