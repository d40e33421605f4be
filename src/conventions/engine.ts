import { and, asc, count, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { batch } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../http/problem.ts";
import { marketsOfLocales } from "./locales.ts";
import { paginationOf } from "./pagination.ts";
import type { ConventionQuery } from "./query-schema.ts";
import type { AnyResource, NestedRendered, Related, RenderContext } from "./resource.ts";
import { getStoreSettings } from "./store-settings.ts";

type Row = Record<string, unknown> & { id: number };
type AnyId = number | string;

/** The selection a request makes on one resource: root fields, translated fields, includes. */
interface Selection {
  fields: string[];
  translated: string[];
  includes: string[];
}

export const jsonIn = (column: SQLiteColumn | SQL, values: readonly (string | number)[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

export const jsonInNoCase = (column: SQLiteColumn, values: readonly string[]) =>
  sql`${column} COLLATE NOCASE IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

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
    const disabled = locales.filter((l) => !store.enabledLocales.includes(l));
    if (disabled.length > 0) {
      throw new ApiError(
        "unsupported_locale",
        `Locale${disabled.length > 1 ? "s" : ""} not enabled for this store: ${disabled.join(", ")}`,
        disabled.map((l) => ({
          location: "query" as const,
          path: "locales",
          message: `${l} is not enabled for this store`,
        })),
      );
    }
    resolved = locales;
  }
  return {
    c,
    db: c.get("db"),
    locales: resolved,
    markets: marketsOfLocales(resolved),
    store,
    today: new Date().toISOString().slice(0, 10),
  };
}

function selectionOf(resource: AnyResource, query: Pick<ConventionQuery, "fields" | "includes">): Selection {
  const trFields = resource.translations?.fields ?? {};
  const rootNames = Object.keys(resource.fields);
  const fixed = rootNames.filter((n) => resource.fields[n]?.kind === "fixed");
  if (query.fields) {
    return {
      fields: rootNames.filter((n) => fixed.includes(n) || query.fields?.includes(n)),
      translated: Object.keys(trFields).filter((n) => query.fields?.includes(n)),
      includes: query.includes ?? [],
    };
  }
  return {
    fields: rootNames.filter((n) => {
      const kind = resource.fields[n]?.kind;
      return kind === "fixed" || kind === "default";
    }),
    translated: Object.keys(trFields).filter((n) => trFields[n]?.kind === "default"),
    includes: query.includes ?? [],
  };
}

const defaultSelection = (resource: AnyResource) => selectionOf(resource, {});

/** A parent a sub-list belongs to (`/price-lists/{id}/variant-prices`): 404 when its query finds no row. */
export interface ListParent {
  label: string;
  query: BatchItem<"sqlite">;
}

/**
 * A list page: 1 round trip for count + rows (and the parent's existence), 1 for the page's related
 * data, 1 for the default representations of includes and nested objects.
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
  const where = and(extraWhere, resource.scope?.(ctx), ...filterConditions(resource, query, ctx));
  const [[total], rows, parentRows] = (await batch(c, [
    ctx.db.select({ n: count() }).from(resource.table).where(where),
    pageQuery(resource, ctx, where, query.sort ?? resource.defaultSort, perPage, (page - 1) * perPage),
    ...(parent ? [parent.query] : []),
  ])) as unknown as [[{ n: number }], Row[], unknown[] | undefined];
  if (parent && (parentRows ?? []).length === 0) throw notFound(parent.label);
  const totalCount = total?.n ?? 0;
  if (rows.length === 0 && page > 1) {
    throw new ApiError("page_not_found", `Page ${page} is beyond the last page`, [
      {
        location: "query",
        path: "page",
        message: `must be <= ${Math.max(1, Math.ceil(totalCount / perPage))}`,
      },
    ]);
  }
  const data = await renderRows(ctx, resource, rows, selectionOf(resource, query));
  return {
    pagination: paginationOf(c.req.url, page, perPage, totalCount),
    data,
  };
}

/** One resource by id with the request's `fields`, `includes` and `locales`; 404 when absent. */
export async function getResource(
  c: Context<AppEnv>,
  resource: AnyResource,
  id: AnyId,
  query: Pick<ConventionQuery, "fields" | "includes" | "locales">,
  extraWhere?: SQL,
) {
  const ctx = await renderContext(c, query.locales);
  const where = and(eq(resource.idColumn, id), extraWhere, resource.scope?.(ctx));
  const [rows] = (await batch(c, [
    ctx.db.select(rowColumns(resource)).from(resource.table).where(where).limit(1),
  ])) as unknown as [Row[]];
  if (rows.length === 0) throw notFound(resource.label);
  const [item] = await renderRows(ctx, resource, rows, selectionOf(resource, query));
  return item as Record<string, unknown>;
}

function filterConditions(resource: AnyResource, query: ConventionQuery, ctx: RenderContext) {
  const out: (SQL | undefined)[] = [];
  for (const [name, filter] of Object.entries(resource.filters ?? {})) {
    const value = query[name];
    if (value !== undefined) out.push(filter.where(value as never, ctx));
  }
  return out;
}

function pageQuery(
  resource: AnyResource,
  ctx: RenderContext,
  where: SQL | undefined,
  sort: string,
  limit: number,
  offset: number,
) {
  const match = /^(.*)_(asc|desc)$/.exec(sort);
  const def = match ? resource.sorts[match[1] as string] : undefined;
  if (!match || !def) throw new ApiError("invalid_parameter", `Unknown sort ${sort}`);
  const dir = match[2] === "asc" ? asc : desc;
  const columns = rowColumns(resource);
  if ("column" in def) {
    return ctx.db
      .select(columns)
      .from(resource.table)
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
    .from(resource.table)
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
 * The table's columns, with the key column also as `id` when the table keys rows otherwise. It is
 * selected under an alias of its own: in a D1 batch drizzle maps rows by column name, so the same
 * column name twice in one select would collapse and shift every later value.
 */
function rowColumns(resource: AnyResource) {
  const columns = getTableColumns(resource.table);
  return columns.id === resource.idColumn
    ? columns
    : { ...columns, id: sql<number>`${resource.idColumn}`.as("__row_id") };
}

/**
 * Loads what the selection needs for these rows in one round trip, then the default representation
 * of included rows and nested objects in one more, and renders.
 */
export async function renderRows(
  ctx: RenderContext,
  resource: AnyResource,
  rows: Row[],
  selection: Selection,
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const level1 = planLoads(ctx, resource, rows, selection, true);
  const includePlans = selection.includes.map((name) => {
    const def = resource.includes?.[name];
    if (!def) throw new ApiError("invalid_parameter", `Unknown include ${name}`);
    return { name, def, query: def.query(ctx.db, rows, ctx) };
  });
  const queries = [...level1.queries, ...includePlans.map((p) => p.query)];
  const results = queries.length > 0 ? await batch(ctx.c, queries as unknown as [BatchItem<"sqlite">]) : [];
  const loadResults = results.slice(0, level1.queries.length);

  // Included rows and nested objects, each in its resource's default representation.
  const grouped = includePlans.map((plan, i) => plan.def.group(results[level1.queries.length + i], rows));
  const nestedSets = level1.nestedSets(loadResults);
  const rendered = await renderDefaults(ctx, [
    ...includePlans.map((plan, i) => ({
      resource: plan.def.resource(),
      rows: [...(grouped[i] as Map<number, Record<string, unknown>[]>).values()].flat() as Row[],
      fields: plan.def.fields,
    })),
    ...nestedSets,
  ]);
  const nested: Record<string, NestedRendered> = {};
  nestedSets.forEach((set, i) => {
    const byName = nested[set.loader] ?? {};
    byName[set.name] = rendered[includePlans.length + i] as Map<number, Record<string, unknown>>;
    nested[set.loader] = byName;
  });
  const related = level1.collect(loadResults, nested);

  const included: Record<string, Map<number, Record<string, unknown>[]>> = {};
  includePlans.forEach((plan, i) => {
    const byId = rendered[i] as Map<number, Record<string, unknown>>;
    const byParent = new Map<number, Record<string, unknown>[]>();
    for (const [parentId, children] of grouped[i] as Map<number, Record<string, unknown>[]>) {
      byParent.set(
        parentId,
        children.map((r) => byId.get((r as Row).id) as Record<string, unknown>),
      );
    }
    included[plan.name] = byParent;
  });

  return rows.map((row) => {
    const out = renderOne(ctx, resource, row, related, selection);
    for (const { name, def } of includePlans) {
      const children = included[name]?.get(row.id) ?? [];
      out[name] = def.kind === "one" ? (children[0] ?? null) : children;
    }
    return out;
  });
}

/**
 * Renders sets of other resources' rows in their default representation (request locales), loading
 * what they need in one round trip for all sets. Returns, per set, row id → rendered object.
 */
async function renderDefaults(
  ctx: RenderContext,
  sets: { resource: AnyResource; rows: Row[]; fields?: string[] }[],
) {
  const plans = sets.map(({ resource, rows, fields }) => {
    const unique = uniqueRows(rows);
    // An include may name its representation (`IncludeDef.fields`): fixed fields plus exactly those.
    const selection = fields ? selectionOf(resource, { fields }) : defaultSelection(resource);
    return { resource, rows: unique, selection, loads: planLoads(ctx, resource, unique, selection, false) };
  });
  const queries = plans.flatMap((p) => p.loads.queries);
  const results = queries.length > 0 ? await batch(ctx.c, queries as unknown as [BatchItem<"sqlite">]) : [];
  let offset = 0;
  return plans.map((p) => {
    const related = p.loads.collect(results.slice(offset, offset + p.loads.queries.length), {});
    offset += p.loads.queries.length;
    return new Map(p.rows.map((row) => [row.id, renderOne(ctx, p.resource, row, related, p.selection)]));
  });
}

const TRANSLATIONS = "__translations";

function planLoads(
  ctx: RenderContext,
  resource: AnyResource,
  rows: Row[],
  selection: Selection,
  allowNested: boolean,
) {
  const ids = rows.map((r) => r.id);
  // Nothing to load for no rows (an include or nested set that found nothing on this page).
  const names = new Set(
    rows.length === 0 ? [] : selection.fields.flatMap((f) => resource.fields[f]?.needs ?? []),
  );
  const queries: BatchItem<"sqlite">[] = [];
  const order: string[] = [];
  const tr = resource.translations;
  if (tr && selection.translated.length > 0 && rows.length > 0) {
    queries.push(
      ctx.db
        .select()
        .from(tr.table)
        .where(and(jsonIn(tr.fk, ids), jsonIn(tr.localeColumn, ctx.locales))),
    );
    order.push(TRANSLATIONS);
  }
  for (const name of names) {
    const loader = resource.loaders?.[name];
    if (!loader) throw new Error(`${resource.name}: unknown loader ${name}`);
    if (loader.nested && !allowNested)
      throw new Error(`${resource.name}: loader ${name} nests below a nested level`);
    queries.push(loader.query(ctx.db, ids, ctx));
    order.push(name);
  }
  return {
    queries,
    /** The rows each nested declaration finds in its loader's result, to render before `collect`. */
    nestedSets(results: unknown[]) {
      return order.flatMap((loaderName, i) =>
        Object.entries(resource.loaders?.[loaderName]?.nested ?? {}).map(([name, def]) => ({
          loader: loaderName,
          name,
          resource: def.resource(),
          rows: def.rows(results[i]) as Row[],
        })),
      );
    },
    collect(results: unknown[], nested: Record<string, NestedRendered>): Related {
      const related: Related = {};
      order.forEach((name, i) => {
        if (name === TRANSLATIONS && tr) {
          const fkKey = columnKey(tr.fk);
          const localeKey = columnKey(tr.localeColumn);
          const map = new Map<number, unknown>();
          for (const r of results[i] as Record<string, unknown>[]) {
            const id = r[fkKey] as number;
            let byLocale = map.get(id) as Record<string, unknown> | undefined;
            if (!byLocale) {
              byLocale = {};
              map.set(id, byLocale);
            }
            byLocale[r[localeKey] as string] = r;
          }
          related[TRANSLATIONS] = map;
        } else {
          related[name] = resource.loaders?.[name]?.collect(results[i], nested[name] ?? {}) ?? new Map();
        }
      });
      return related;
    },
  };
}

function renderOne(
  ctx: RenderContext,
  resource: AnyResource,
  row: Row,
  related: Related,
  selection: Selection,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of selection.fields) {
    const field = resource.fields[name];
    if (!field) continue;
    const value = field.render(row, related, ctx);
    const key = field.into ?? name;
    if (field.into && out[key] && typeof out[key] === "object" && value && typeof value === "object") {
      out[key] = deepMerge(out[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      out[key] = value;
    }
  }
  const tr = resource.translations;
  if (tr && selection.translated.length > 0) {
    const byLocale = (related[TRANSLATIONS]?.get(row.id) ?? {}) as Record<string, unknown>;
    const translations: Record<string, Record<string, unknown>> = {};
    for (const locale of ctx.locales) {
      const entry: Record<string, unknown> = {};
      for (const name of selection.translated) {
        entry[name] = tr.fields[name]?.render(byLocale[locale], locale, row, ctx) ?? null;
      }
      translations[locale] = entry;
    }
    out.translations = translations;
  }
  return out;
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && typeof prev === "object" && v && typeof v === "object"
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function uniqueRows(rows: Row[]): Row[] {
  const seen = new Map<number, Row>();
  for (const r of rows) if (!seen.has(r.id)) seen.set(r.id, r);
  return [...seen.values()];
}

/** The property name drizzle gives a column in selected rows. */
export function columnKey(column: SQLiteColumn): string {
  const table = (column as unknown as { table: Parameters<typeof getTableColumns>[0] }).table;
  const entry = Object.entries(getTableColumns(table)).find(([, col]) => col === column);
  if (!entry) throw new Error(`column ${column.name} not in its table`);
  return entry[0];
}

/** Renders rows already loaded (after a write) with the request's `fields` and `locales`. */
export async function renderById(
  c: Context<AppEnv>,
  resource: AnyResource,
  id: number,
  query: Pick<ConventionQuery, "fields" | "locales">,
) {
  return getResource(c, resource, id, query);
}
