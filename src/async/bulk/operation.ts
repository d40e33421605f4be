import type { z } from "@hono/zod-openapi";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { AnyResource } from "../../conventions/resource.ts";
import type { CacheDomain } from "../../db/cache-generations.ts";
import type { AppEnv } from "../../env.ts";
import type { BulkJobType, Processor } from "./types.ts";

/** One route accepting a bulk operation; an operation's routes share its summary, description and body. */
interface BulkRoute {
  path: string;
  operationId: string;
  tag: string;
}

/**
 * What a record writes. Its fields that `resource` declares as plain columns, and its
 * `translations`, are written through the declaration (columnChanges, translationChanges); every
 * other field is a relation, named with the table the processor writes (or matches it in) by hand,
 * or with the writes of its nested records. test/bulk/record-fields.test.ts fails on a record field
 * that is none of these, which a job would otherwise drop without a word.
 */
export interface BulkWrites {
  resource: AnyResource;
  relations?: Readonly<Record<string, SQLiteTable | BulkWrites>>;
}

/**
 * Everything about one bulk operation: its routes, the body they accept (derived from `itemsKey`,
 * `options` and `record`) and the processor its jobs run. Each lives next to its resource
 * (`src/resources/<name>/<operation>.bulk.ts`) and is listed once in src/resources/job-operations.ts.
 */
export interface BulkOperation<T extends BulkJobType = BulkJobType> {
  type: T;
  routes: readonly BulkRoute[];
  summary: string;
  description: string;
  /** The top-level key of the body holding the records array. */
  itemsKey: string;
  /**
   * The body's own `options`, checked whole at accept time and stored with the job. Every
   * operation also takes `dry_run` (bulk.routes.ts adds it), so `options` is optional when absent.
   */
  options?: z.ZodObject;
  /** A record as documented: the job validates each record with this schema, field by field. */
  record: z.ZodObject;
  /** The resource the records write and the fields written by hand. */
  writes: BulkWrites;
  /** The documented body's example: real shapes of the demo data (src/seed/). */
  bodyExample: Record<string, unknown>;
  /**
   * For routes under one parent (`…/{id}/…`): runs before any job exists, throws to refuse (404 for
   * a missing parent) and returns the job params naming the parent.
   */
  guard?: (c: Context<AppEnv>, id: number) => Promise<Record<string, unknown>>;
  processor: Processor;
  /** The edge cache domains its jobs change: each committed chunk that applied records bumps them once. */
  invalidates: readonly CacheDomain[];
}

/** Every bulk operation by the job type it runs: the routes mount and the jobs consumer dispatches from it. */
export type BulkOperations = { readonly [T in BulkJobType]: BulkOperation<T> };
