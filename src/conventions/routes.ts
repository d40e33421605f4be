import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { LOCATION_HEADER, listOf } from "../http/openapi-shared.ts";
import { defineRoute, pathId } from "../http/route.ts";
import type { Scope } from "../http/route-table.ts";
import { cachePolicy } from "./cache-policy.ts";
import { getResource, listResource } from "./engine.ts";
import { conventionQuerySchema, writeQuerySchema } from "./query-schema.ts";
import type { AnyResource, ParentDef } from "./resource.ts";
import { created, updated } from "./write/run-write.ts";

/** Mounts one route of a resource, given the resource's declaration. */
export type MountRoute = (app: OpenAPIHono<AppEnv>, resource: AnyResource) => void;

/** One entry of the resources registry: a declaration and the routes it adds to its standard ones. */
export interface ResourceRoutes {
  resource: AnyResource;
  /** Mounted after the standard routes, in this order: `createRoute`, `updateRoute`, or its own. */
  routes?: MountRoute[];
}

/**
 * Mounts a resource's standard routes, served by the engine from its declaration (its list and get,
 * or for a sub-resource its list under the parent), then the routes its entry adds.
 */
export function mountResource(app: OpenAPIHono<AppEnv>, { resource, routes = [] }: ResourceRoutes) {
  if (resource.parent) {
    mountSubList(app, resource, resource.parent);
  } else {
    mountList(app, resource);
    mountGet(app, resource);
  }
  for (const mount of routes) mount(app, resource);
}

/** "Price lists" → "PriceLists", for operation ids. */
const pascal = (label: string) =>
  label
    .split(" ")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

/**
 * How an operation on one item is named and guarded: `getPriceList`, "Get a price list" (unless
 * `summary` says otherwise), tag, scope.
 */
const itemOperation = (
  resource: AnyResource,
  verb: "get" | "create" | "update",
  scope: Scope,
  summary = `${pascal(verb)} a ${resource.label.toLowerCase()}`,
) => ({
  operationId: `${verb}${pascal(resource.label)}`,
  summary,
  tags: [resource.tag],
  scope: resource.scope ?? scope,
});

/** Which query parameters shape each item of the resource's answers ("`fields`, `includes` and `locales`"). */
function representationParams(resource: AnyResource) {
  const names = [
    resource.selectable !== false ? "`fields`" : undefined,
    resource.includes ? "`includes`" : undefined,
    resource.localized ? "`locales`" : undefined,
  ].filter((name) => name !== undefined);
  if (names.length === 0) return "";
  const last = names.pop();
  return names.length > 0 ? `${names.join(", ")} and ${last}` : `${last}`;
}

/** The list's description: the resource's own, else what any list does. */
const listDescription = (resource: AnyResource) => {
  const shape = representationParams(resource);
  return (
    resource.description ??
    `A page of ${resource.plural.toLowerCase()}, filtered by the query and ordered by \`sort\` (default \`${resource.defaultSort}\`).${shape ? ` ${shape} choose the representation of each item.` : ""}`
  );
};

/** The get's description. */
const getDescription = (resource: AnyResource) => {
  const shape = representationParams(resource);
  return `One ${resource.label.toLowerCase()} by its id, in the representation of the list's items${shape ? ` (${shape} as in the list)` : ""}. An unknown id is 404.`;
};

/** What a top-level list and a list under a parent declare alike; `items` names a page's items. */
const listOperation = (resource: AnyResource, items: string) => ({
  method: "get" as const,
  path: `/api/v1${resource.path}`,
  description: listDescription(resource),
  tags: [resource.tag],
  scope: resource.scope ?? "read",
  ...cachePolicy(resource, "list"),
  query: conventionQuerySchema(resource, "list"),
  responses: {
    200: {
      description: `A page of ${items.toLowerCase()}`,
      content: { "application/json": { schema: listOf(resource.item) } },
    },
  },
});

/** `GET <path>`: the list served by the engine from the resource's declaration. */
function mountList(app: OpenAPIHono<AppEnv>, resource: AnyResource) {
  defineRoute(
    app,
    {
      ...listOperation(resource, resource.plural),
      operationId: `list${pascal(resource.plural)}`,
      summary: `List ${resource.plural.toLowerCase()}`,
    },
    async (c, { query }) => c.json(await listResource(c, resource, query)),
  );
}

/** `GET <path>/{id}`: one item through the engine; 404 for an unknown id. */
function mountGet(app: OpenAPIHono<AppEnv>, resource: AnyResource) {
  defineRoute(
    app,
    {
      method: "get",
      path: `/api/v1${resource.path}/{id}`,
      ...itemOperation(resource, "get", "read"),
      description: getDescription(resource),
      params: resource.idParam ?? pathId,
      ...cachePolicy(resource, "get"),
      query: conventionQuerySchema(resource, "single"),
      responses: {
        200: {
          description: `The ${resource.label.toLowerCase()}`,
          content: { "application/json": { schema: resource.item } },
        },
      },
    },
    async (c, { params, query }) => c.json(await getResource(c, resource, params.id, query)),
  );
}

/**
 * `GET <parent>/{id}/<children>`: a list through the engine, limited to one parent; an unknown
 * parent is 404, checked in the same round trip as the page.
 */
function mountSubList(app: OpenAPIHono<AppEnv>, resource: AnyResource, parent: ParentDef) {
  defineRoute(
    app,
    {
      ...listOperation(resource, parent.summary),
      operationId: `list${pascal(parent.label)}${pascal(resource.plural)}`,
      summary: parent.summary,
      params: parent.params,
    },
    async (c, { params, query }) => {
      // The path's only parameter is the parent's id.
      const [parentId] = Object.values(params);
      return c.json(
        await listResource(c, resource, query, eq(parent.column, parentId), {
          label: parent.label,
          query: c
            .get("db")
            .select({ id: parent.idColumn })
            .from(parent.table)
            .where(eq(parent.idColumn, parentId)),
        }),
      );
    },
  );
}

/** What a verb adds to its answer beyond the resource rendered like a get (a webhook's new signing secret). */
type Extras = Record<string, unknown>;

interface WriteRouteOptions<B extends z.ZodType> {
  /** Absent: "Create a brand", "Update a brand". */
  summary?: string;
  description: string;
  body: B;
  /** The answer, when the verb adds `Extras` to the resource (absent: "Created" or "Updated", the item schema). */
  answer?: { description: string; schema: z.ZodType };
}

/**
 * `POST <path>`: validates the body, runs the resource's create verb (which returns the new id,
 * with any `Extras` of the answer) and answers 201 with `Location` and the resource rendered like a
 * get (`fields`, `locales`).
 */
export const createRoute =
  <B extends z.ZodType>(
    o: WriteRouteOptions<B> & {
      create: (c: Context<AppEnv>, body: z.output<B>) => Promise<number | { id: number; extras: Extras }>;
    },
  ): MountRoute =>
  (app, resource) =>
    defineRoute(
      app,
      {
        method: "post",
        path: `/api/v1${resource.path}`,
        ...itemOperation(resource, "create", "write", o.summary),
        description: o.description,
        query: writeQuerySchema(resource),
        body: o.body,
        responses: {
          201: {
            description: o.answer?.description ?? "Created",
            headers: LOCATION_HEADER,
            content: { "application/json": { schema: o.answer?.schema ?? resource.item } },
          },
        },
      },
      async (c, { query, body }) => {
        const result = await o.create(c, body);
        const { id, extras } = typeof result === "number" ? { id: result, extras: {} } : result;
        return created(c, resource, resource.path, id, query, extras);
      },
    );

/**
 * `PATCH <path>/{id}`: runs the resource's update verb on the fields sent and answers the resource
 * (with the `Extras` the verb returns, if any).
 */
export const updateRoute =
  <B extends z.ZodType>(
    o: WriteRouteOptions<B> & {
      update: (c: Context<AppEnv>, id: number, body: z.output<B>) => Promise<void> | Promise<Extras>;
    },
  ): MountRoute =>
  (app, resource) =>
    defineRoute(
      app,
      {
        method: "patch",
        path: `/api/v1${resource.path}/{id}`,
        ...itemOperation(resource, "update", "write", o.summary),
        description: o.description,
        params: pathId,
        query: writeQuerySchema(resource),
        body: o.body,
        responses: {
          200: {
            description: o.answer?.description ?? "Updated",
            content: { "application/json": { schema: o.answer?.schema ?? resource.item } },
          },
        },
      },
      async (c, { params, query, body }) => {
        const extras = (await o.update(c, params.id, body)) ?? {};
        return updated(c, resource, params.id, query, extras);
      },
    );
