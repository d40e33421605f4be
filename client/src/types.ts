import type { components, paths } from "./schema.d.ts";

type Operation<P extends keyof paths, M extends "get" | "post"> = paths[P] extends { [K in M]: infer Op }
  ? Op
  : never;

type JsonBody<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

type OperationParams<Op> = Op extends { parameters: infer Params } ? Params : never;

/** The paths whose GET answers a page: `{ pagination, data: [...] }`. */
export type ListPath = {
  [P in keyof paths]: JsonBody<Operation<P, "get">, 200> extends { pagination: unknown; data: unknown[] }
    ? P
    : never;
}[keyof paths];

/** One element of a list path's `data`. */
export type ListItem<P extends ListPath> =
  JsonBody<Operation<P, "get">, 200> extends { data: (infer T)[] } ? T : never;

/** A list path's parameters (`path`, `query`, `header`), as openapi-fetch takes them. */
export type ListParams<P extends ListPath> = OperationParams<Operation<P, "get">>;

/** The kinds of rows an export writes: `POST /api/v1/<kind>/export`. */
export type ExportKind = "products" | "variants";

/** The paths that take a bulk body and answer 202 with a job (the exports' aside). */
export type BulkPath = {
  [P in keyof paths]: P extends `/api/v1/${ExportKind}/export`
    ? never
    : JsonBody<Operation<P, "post">, 202> extends components["schemas"]["JobAccepted"]
      ? P
      : never;
}[keyof paths];

/** An export's request body (`filters`, `format`): the same for every kind. */
export type ExportBody = NonNullable<
  paths["/api/v1/products/export"]["post"]["requestBody"]
>["content"]["application/json"];

/** A bulk path's request body. */
export type BulkBody<P extends BulkPath> =
  Operation<P, "post"> extends {
    requestBody: { content: { "application/json": infer Body } };
  }
    ? Body
    : never;

/** A bulk path's path parameters (the price list's id), or never when it has none. */
export type BulkPathParams<P extends BulkPath> =
  OperationParams<Operation<P, "post">> extends {
    path: infer PathParams extends Record<string, unknown>;
  }
    ? PathParams
    : never;

export type Job = JsonBody<paths["/api/v1/jobs/{id}"]["get"], 200>;
export type JobAccepted = components["schemas"]["JobAccepted"][number];
export type JobLogEntry = ListItem<"/api/v1/jobs/{id}/logs">;
export type LogSeverity = NonNullable<
  NonNullable<paths["/api/v1/jobs/{id}/logs"]["get"]["parameters"]["query"]>["severity"]
>[number];

/** One change feed entry (`GET /api/v1/changes`). */
export type ChangeEntry = components["schemas"]["ChangeEntry"];
export type ChangeResource = ChangeEntry["resource"];
