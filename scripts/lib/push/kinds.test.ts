/**
 * The push CLI's `--kind`s against the committed API document: a renamed path, records key, record
 * schema or option value, or a bulk operation the CLI cannot submit to, fails here rather than in a
 * user's push.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { KINDS } from "./kinds.ts";
import { PULL_KINDS } from "./pull-args.ts";

interface Schema {
  $ref?: string;
  type?: string;
  enum?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
}

interface Operation {
  operationId: string;
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }>;
}

const document = JSON.parse(readFileSync(new URL("../../../openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
};

const bodyOf = (operation: Operation) => operation.requestBody?.content["application/json"].schema;

/** Every POST of the document that starts a job (answering 202 `JobAccepted`), by path. */
const jobRoutes = Object.entries(document.paths).flatMap(([path, methods]) => {
  const post = methods.post;
  const accepted = post?.responses["202"]?.content?.["application/json"]?.schema.$ref;
  return post && accepted === "#/components/schemas/JobAccepted" ? [[path, post] as const] : [];
});

/** Those that take records (an array in the body): the bulk operations; the others are exports. */
const takesRecords = (operation: Operation) =>
  Object.values(bodyOf(operation)?.properties ?? {}).some((p) => p.type === "array");
const bulkRoutes = new Map(jobRoutes.filter(([, post]) => takesRecords(post)));
const exportRoutes = jobRoutes.filter(([, post]) => !takesRecords(post)).map(([path]) => path);
const recordSchemaOf = (operation: Operation, itemsKey: string) =>
  bodyOf(operation)?.properties?.[itemsKey]?.items?.$ref?.replace("#/components/schemas/", "");

test("every --kind is a bulk route of openapi.json, with its records key, record schema and option values", () => {
  assert.ok(bulkRoutes.size > 0, "openapi.json has bulk routes");
  for (const [name, kind] of Object.entries(KINDS)) {
    const operation = bulkRoutes.get(kind.path);
    assert.ok(operation, `--kind ${name}: ${kind.path} is not a bulk route of openapi.json`);
    assert.equal(
      recordSchemaOf(operation, kind.itemsKey),
      kind.schema,
      `--kind ${name}: records key and schema`,
    );
    const options = bodyOf(operation)?.properties?.options?.properties ?? {};
    assert.deepEqual(options.match_by?.enum ?? [], [...kind.matchBy], `--kind ${name}: match_by values`);
    const modes = "modes" in kind ? [...kind.modes] : undefined;
    assert.deepEqual(options.mode?.enum, modes, `--kind ${name}: mode values`);
  }
});

test("every bulk operation of openapi.json can be pushed: its record schema is a --kind's", () => {
  const pushable = new Set<string>(Object.values(KINDS).map((kind) => kind.schema));
  for (const [path, operation] of bulkRoutes) {
    const key = Object.keys(bodyOf(operation)?.properties ?? {}).find((k) => k !== "options") ?? "";
    const schema = recordSchemaOf(operation, key);
    assert.ok(schema && pushable.has(schema), `${operation.operationId} (${path}) has no --kind`);
  }
});

test("every export route of openapi.json can be pulled, and every pull --kind is one", () => {
  assert.deepEqual(exportRoutes.sort(), PULL_KINDS.map((kind) => `/api/v1/${kind}/export`).sort());
});
