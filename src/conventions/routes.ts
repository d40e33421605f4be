import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { listOf } from "../http/openapi-shared.ts";
import { defineRoute, pathId } from "../http/route.ts";
import type { Scope } from "../http/route-table.ts";
import { getResource, listResource } from "./engine.ts";
import { type ConventionQuery, conventionQuerySchema, writeQuerySchema } from "./query-schema.ts";
import type { AnyResource } from "./resource.ts";
import { created, updated } from "./write/run-write.ts";

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

type ParamsSchema = z.ZodObject<Record<string, z.ZodType<string | number>>>;

interface SubListOptions {
  /** Path under `/api/v1` with the parent's parameter, e.g. `/products/{product_id}/variants`. */
  path: string;
  /** Path parameter schema; `param` names the parent's id in it. */
  params: ParamsSchema;
  param: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  item: z.ZodType;
  scope?: Scope;
  parent: { label: string; table: SQLiteTable; idColumn: SQLiteColumn };
  /** The condition selecting the parent's rows of this resource. */
  belongsTo: (parentId: string | number) => SQL;
}

/**
 * `GET <parent>/{id}/<children>`: a list through the engine, limited to one parent; an unknown
 * parent is 404, checked in the same round trip as the page.
 */
export function mountSubList(app: OpenAPIHono<AppEnv>, resource: AnyResource, o: SubListOptions) {
  defineRoute(
    app,
    {
      method: "get",
      path: `/api/v1${o.path}`,
      operationId: o.operationId,
      summary: o.summary,
      description: o.description,
      tags: [o.tag],
      scope: o.scope ?? "read",
      params: o.params,
      query: conventionQuerySchema(resource, "list"),
      responses: {
        200: {
          description: `A page of ${o.summary.toLowerCase()}`,
          content: { "application/json": { schema: listOf(o.item) } },
        },
      },
    },
    async (c, { params, query }) => {
      const parentId = (params as Record<string, string | number>)[o.param] as string | number;
      return c.json(
        await listResource(c, resource, query as ConventionQuery, o.belongsTo(parentId), {
          label: o.parent.label,
          query: c
            .get("db")
            .select({ id: o.parent.idColumn })
            .from(o.parent.table)
            .where(eq(o.parent.idColumn, parentId)),
        }),
      );
    },
  );
}

interface WriteRouteOptions {
  /** Collection path under `/api/v1`, e.g. `/brands`. */
  path: string;
  tag: string;
  item: z.ZodType;
  /** Singular noun for the operation id and summary (`Brand` → `createBrand`). */
  singular: string;
  description?: string;
}

/**
 * `POST <path>`: validates the body, runs the resource's create verb (which returns the new id)
 * and answers 201 with `Location` and the resource rendered like a get (`fields`, `locales`).
 */
export function mountCreate<B extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  resource: AnyResource,
  o: WriteRouteOptions & { body: B; create: (c: Context<AppEnv>, body: z.output<B>) => Promise<number> },
) {
  defineRoute(
    app,
    {
      method: "post",
      path: `/api/v1${o.path}`,
      operationId: `create${o.singular}`,
      summary: `Create a ${words(o.singular)}`,
      description: o.description,
      tags: [o.tag],
      scope: "write",
      query: writeQuerySchema(resource),
      body: o.body,
      responses: { 201: { description: "Created", content: { "application/json": { schema: o.item } } } },
    },
    async (c, { query, body }) =>
      created(c, resource, o.path, await o.create(c, body), query as ConventionQuery),
  );
}

/** `PATCH <path>/{id}`: runs the resource's update verb on the fields sent and answers the resource. */
export function mountUpdate<B extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  resource: AnyResource,
  o: WriteRouteOptions & {
    body: B;
    update: (c: Context<AppEnv>, id: number, body: z.output<B>) => Promise<void>;
  },
) {
  defineRoute(
    app,
    {
      method: "patch",
      path: `/api/v1${o.path}/{id}`,
      operationId: `update${o.singular}`,
      summary: `Update a ${words(o.singular)}`,
      description: o.description,
      tags: [o.tag],
      scope: "write",
      params: pathId,
      query: writeQuerySchema(resource),
      body: o.body,
      responses: { 200: { description: "Updated", content: { "application/json": { schema: o.item } } } },
    },
    async (c, { params, query, body }) => {
      await o.update(c, params.id, body);
      return updated(c, resource, params.id, query as ConventionQuery);
    },
  );
}
