import type { OpenAPIHono } from "@hono/zod-openapi";
import { mountGet, mountList } from "../../conventions/routes.ts";
import type { AppEnv } from "../../env.ts";
import { contactResource } from "./contacts.resource.ts";
import { ContactSchema } from "./contacts.schema.ts";

const read = {
  path: "/contacts",
  tag: "Contacts",
  item: ContactSchema,
  plural: "Contacts",
  singular: "Contact",
};

export function registerContacts(app: OpenAPIHono<AppEnv>) {
  mountList(app, contactResource, {
    ...read,
    description:
      "`view` is required: `customers` lists contacts with `is_customer`, `subscribers` contacts whose `mkt_state` is not `not_subscribed`. Both views render contacts the same way.",
  });
  mountGet(app, contactResource, read);
}
