import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../env.ts";
import type { IdSet } from "./id-set.ts";
import type { AnyResource, Loader, NestedRendered, RenderContext } from "./resource.ts";

/** A loader's declaration, its rows typed as its query's. */
interface TypedLoader<Query extends BatchItem<"sqlite">, Value> {
  /** One query for every row of the page: filter with `ids.in(column)`. */
  query: (db: Db, ids: IdSet, ctx: RenderContext) => Query;
  /** Groups the query's rows by row id; `nested` holds the rendered objects `nested` declares. */
  collect: (rows: Awaited<Query>, nested: NestedRendered) => Map<number, Value>;
  /** Rows of other resources the query found, which the engine renders (Loader["nested"]). */
  nested?: Record<string, { resource: () => AnyResource; rows: (rows: Awaited<Query>) => { id: number }[] }>;
}

/**
 * A loader whose `collect` (and `nested`) take the rows its `query` selects, as drizzle types them:
 * the engine passes each loader the result of its own query in the batch, so no field or collect
 * casts it.
 */
export function loader<Query extends BatchItem<"sqlite">, Value>(
  def: TypedLoader<Query, Value>,
): Loader<Value> {
  // Stated once here: `result` is what `query` answered in the page's batch.
  return def as unknown as Loader<Value>;
}
