import type { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, Scope } from "../env.ts";
import { listOf } from "../http/openapi-shared.ts";
import { defineRoute, pathId } from "../http/route.ts";
import { getResource, listResource } from "./engine.ts";
import { type ConventionQuery, conventionQuerySchema } from "./query-schema.ts";
import type { AnyResource } from "./resource.ts";

interface ReadRouteOptions {
  /** Collection path under `/api/v1`, e.g. `/brands`. */
  path: string;
  tag: string;
  /** Contract schema of one item (default representation and every optional field). */
  item: z.ZodType;
  /** Plural and singular nouns for operation ids and summaries. */
  plural: string;
  singular: string;
  scope?: Scope;
  description?: string;
}

/** "PriceLists" → "price lists", for summaries and descriptions. */
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** `GET <path>`: the list served by the engine from the resource's declaration. */
export function mountList(app: OpenAPIHono<AppEnv>, resource: AnyResource, o: ReadRouteOptions) {
  defineRoute(
    app,
    {
      method: "get",
      path: `/api/v1${o.path}`,
      operationId: `list${o.plural}`,
      summary: `List ${words(o.plural)}`,
      description: o.description,
      tags: [o.tag],
      scope: o.scope ?? "read",
      query: conventionQuerySchema(resource, "list"),
      responses: {
        200: {
          description: `A page of ${words(o.plural)}`,
          content: { "application/json": { schema: listOf(o.item) } },
        },
      },
    },
    async (c, { query }) => c.json(await listResource(c, resource, query as ConventionQuery)),
  );
}

/** `GET <path>/{id}`: one item through the engine; 404 for an unknown id. */
export function mountGet(app: OpenAPIHono<AppEnv>, resource: AnyResource, o: ReadRouteOptions) {
  defineRoute(
    app,
    {
      method: "get",
      path: `/api/v1${o.path}/{id}`,
      operationId: `get${o.singular}`,
      summary: `Get a ${words(o.singular)}`,
      tags: [o.tag],
      scope: o.scope ?? "read",
      params: pathId,
      query: conventionQuerySchema(resource, "single"),
      responses: {
        200: {
          description: `The ${words(o.singular)}`,
          content: { "application/json": { schema: o.item } },
        },
      },
    },
    async (c, { params, query }) =>
      c.json(await getResource(c, resource, params.id, query as ConventionQuery)),
  );
}
