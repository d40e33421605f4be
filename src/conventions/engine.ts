import { and, asc, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { batchAll } from "../db/client.ts";
import { keyedColumns } from "../db/keyed-columns.ts";
import { changesAt, nextUtcMidnight } from "../edge/lifetime.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../http/problem.ts";
import { marketsOfLocales } from "../lib/locales.ts";
import { utcDate } from "../lib/time.ts";
import { idList, idQuery } from "./id-set.ts";
import { type ListSource, listSource } from "./list-source.ts";
import { keptCountKey, totalQuery } from "./list-total.ts";
import { paginationOf } from "./pagination.ts";
import type { ConventionQuery } from "./query-schema.ts";
import { planRender } from "./render.ts";
import type { Row } from "./render-row.ts";
import type { AnyResource, RenderContext } from "./resource.ts";
import { type Selection, selectionOf } from "./selection.ts";
import { assertLocalesEnabled, getStoreSettings } from "./store-settings.ts";

type AnyId = number | string;

/** Resolves `locales` against the store: default primary, `ALL` = every enabled locale. */
export async function renderContext(
  c: Context<AppEnv>,
  locales: ConventionQuery["locales"] | undefined,
): Promise<RenderContext> {
  const store = await getStoreSettings(c);
  let resolved: string[];
  if (locales === undefined) resolved = [store.primaryLocale];
  else if (locales === "ALL" || (Array.isArray(locales) && locales[0] === "ALL"))
    resolved = [...store.enabledLocales];
  else {
    assertLocalesEnabled(store, locales, (l) => ({
      location: "query",
      path: "locales",
      message: `${l} is not enabled for this store`,
    }));
    resolved = locales;
  }
  const now = Date.now();
  return {
    c,
    db: c.get("db"),
    locales: resolved,
    markets: marketsOfLocales(resolved),
    store,
    // An answer that reads the day (a selling price, which flash offers change at day boundaries)
    // is cached only until the next 00:00 UTC.
    get today() {
      changesAt(c, nextUtcMidnight(now));
      return utcDate(now);
    },
  };
}

/** A parent a sub-list belongs to (`/price-lists/{id}/variant-prices`): 404 when its query finds no row. */
export interface ListParent {
  label: string;
  query: BatchItem<"sqlite">;
}

/**
 * Deepest offset at which a page's own query is re-run as its loaders' subquery: up to here the
 * page is a short index range; deeper, each re-run would walk the skipped rows again.
 */
const SUBQUERY_MAX_OFFSET = 1_000;

/**
 * A list page: count, rows, the parent's existence and everything the rows' rendering needs. When
 * the page query is a short index range (a column sort, a shallow page) the loaders filter on it as
 * a subquery and all of it is one round trip; a translated sort (a sort of every row) or a deep page
 * reads its rows first and loads by their ids in a second. Nested objects cost one more.
 */
export async function listResource(
  c: Context<AppEnv>,
  resource: AnyResource,
  query: ConventionQuery,
  extraWhere?: SQL,
  parent?: ListParent,
) {
  const ctx = await renderContext(c, query.locales);
  const per = resource.perPage ?? { default: 50, max: 100 };
  const page = query.page ?? 1;
  const perPage = query.per_page ?? per.default;
  const source = listSource(resource, query, ctx, extraWhere);
  const { where } = source;
  const sort = sortOf(resource, query.sort ?? resource.defaultSort);
  const offset = (page - 1) * perPage;
  const selection = selectionOf(resource, query);
  const oneTrip = "column" in sort.def && offset <= SUBQUERY_MAX_OFFSET;
  const plan = oneTrip
    ? planRender(
        ctx,
        resource,
        idQuery(
          pageQuery(resource, ctx, source, sort, perPage, offset, keyedColumns({ id: resource.idColumn })),
        ),
        selection,
      )
    : undefined;
  const [totals, pageRows, ...rest] = await batchAll(c, [
    totalQuery(
      ctx.db,
      resource,
      source,
      source.driven ? undefined : keptCountKey(resource, query, where, extraWhere !== undefined),
    ),
    pageQuery(resource, ctx, source, sort, perPage, offset, rowColumns(resource)),
    ...(parent ? [parent.query] : []),
    ...(plan?.queries ?? []),
  ]);
  const rows = pageRows as Row[];
  if (parent && ((rest.shift() as unknown[] | undefined) ?? []).length === 0) throw notFound(parent.label);
  const totalCount = (totals as { n: number }[])[0]?.n ?? 0;
  if (rows.length === 0 && page > 1) {
    throw new ApiError("page_not_found", `Page ${page} is beyond the last page`, [
      {
        location: "query",
        path: "page",
        message: `must be <= ${Math.max(1, Math.ceil(totalCount / perPage))}`,
      },
    ]);
  }
  const data = plan ? await plan.finish(rows, rest) : await renderByIds(ctx, resource, rows, selection);
  return {
    pagination: paginationOf(c.req.url, page, perPage, totalCount),
    data,
  };
}

/** Renders rows already read, loading what they need by their ids in one round trip. */
async function renderByIds(ctx: RenderContext, resource: AnyResource, rows: Row[], selection: Selection) {
  if (rows.length === 0) return [];
  const plan = planRender(ctx, resource, idList(rows.map((r) => r.id)), selection);
  return plan.finish(rows, await batchAll(ctx.c, plan.queries));
}

/** One resource by id with the request's `fields`, `includes` and `locales`, in one round trip; 404 when absent. */
export async function getResource(
  c: Context<AppEnv>,
  resource: AnyResource,
  id: AnyId,
  query: Pick<ConventionQuery, "fields" | "includes" | "locales">,
  extraWhere?: SQL,
) {
  const ctx = await renderContext(c, query.locales);
  const where = and(eq(resource.idColumn, id), extraWhere, resource.where?.(ctx));
  const plan = planRender(ctx, resource, idList([id]), selectionOf(resource, query));
  const [found, ...rest] = await batchAll(c, [
    ctx.db.select(rowColumns(resource)).from(resource.table).where(where).limit(1),
    ...plan.queries,
  ]);
  const rows = found as Row[];
  if (rows.length === 0) throw notFound(resource.label);
  const [item] = await plan.finish(rows, rest);
  return item as Record<string, unknown>;
}

/** A `sort` value resolved against the resource's sorts (`name_desc` → the `name` sort, descending). */
function sortOf(resource: AnyResource, sort: string) {
  const match = /^(.*)_(asc|desc)$/.exec(sort);
  const def = match ? resource.sorts[match[1] as string] : undefined;
  if (!match || !def) throw new ApiError("invalid_parameter", `Unknown sort ${sort}`);
  return { def, dir: match[2] === "asc" ? asc : desc };
}

function pageQuery(
  resource: AnyResource,
  ctx: RenderContext,
  { from, where }: ListSource,
  { def, dir }: ReturnType<typeof sortOf>,
  limit: number,
  offset: number,
  columns: Record<string, SQLiteColumn | SQL.Aliased>,
) {
  if ("column" in def) {
    return ctx.db
      .select(columns)
      .from(from)
      .where(where)
      .orderBy(...orderTerms(def.column, dir, resource.idColumn))
      .limit(limit)
      .offset(offset);
  }
  const tr = resource.translations;
  if (!tr) throw new Error(`${resource.name}: translated sort without translations`);
  // With locales=ALL the primary locale sorts; otherwise the first requested one.
  const sortLocale =
    ctx.locales.length > 1 && ctx.locales.length === ctx.store.enabledLocales.length
      ? ctx.store.primaryLocale
      : (ctx.locales[0] as string);
  return ctx.db
    .select(columns)
    .from(from)
    .leftJoin(tr.table, and(eq(tr.fk, resource.idColumn), eq(tr.localeColumn, sortLocale)))
    .where(where)
    .orderBy(sql`(${def.translated} IS NULL)`, dir(def.translated), dir(resource.idColumn))
    .limit(limit)
    .offset(offset);
}

/**
 * `ORDER BY` terms: rows missing the value last either way (only where the column can be null, so
 * a NOT NULL column's index still serves the order), then ties by id in the same direction.
 */
function orderTerms(column: SQLiteColumn, dir: typeof asc, idColumn: SQLiteColumn): SQL[] {
  const terms: SQL[] = [];
  if (!column.notNull) terms.push(sql`(${column} IS NULL)`);
  terms.push(dir(column));
  if (column !== idColumn) terms.push(dir(idColumn));
  return terms;
}

/**
 * The table's columns, with the key column also as `id` when the table keys rows otherwise. Every
 * column is selected under its key (`keyedColumns`), so the key column twice in one select does not
 * collapse into one name (which would shift every later value).
 */
function rowColumns(resource: AnyResource) {
  const columns = getTableColumns(resource.table);
  return keyedColumns(
    columns.id === resource.idColumn
      ? columns
      : { ...columns, id: sql<number>`${resource.idColumn}`.as("id") },
  );
}
