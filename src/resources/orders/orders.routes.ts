import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountGet, mountList } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
import { orderResource } from "./orders.resource.ts";
import { OrderSchema } from "./orders.schema.ts";

const read = { path: "/orders", tag: "Orders", item: OrderSchema, plural: "Orders", singular: "Order" };

export function registerOrders(app: OpenAPIHono<AppEnv>) {
  mountList(app, orderResource, {
    ...read,
    description:
      "Newest first by default. `fields=line_items` adds the lines as sold (unit prices with 5 decimals); `includes=customer` embeds the contact (`id`, `email`, `full_name`, `created_at`, `preferred_locale`), null for orders without one.",
  });
  mountGet(app, orderResource, read);
}
