import type { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { CacheDomain } from "../db/cache-generations.ts";
import type { AppEnv, Db } from "../env.ts";
import type { Scope } from "../http/route-table.ts";
import type { IdSet } from "./id-set.ts";
import type { StoreSettings } from "./store-settings.ts";

/** What rendering needs besides the row: the request's locales, their markets and the store. */
export interface RenderContext {
  c: Context<AppEnv>;
  db: Db;
  locales: string[];
  markets: string[];
  store: StoreSettings;
  /** Today's UTC date (YYYY-MM-DD), for flash-offer windows. */
  today: string;
}

/** What a filter's condition may read besides its value: the store (a job has no request). */
export type FilterContext = Pick<RenderContext, "store">;

/** Data loaded in batches for a page of rows: loader name → (row id → value). */
export type Related = Record<string, Map<number, unknown>>;

/**
 * `Related` as a declaration's fields see it: each loader's name with the values its `collect`
 * returns, so a field reads them without a cast and `needs` names only declared loaders.
 */
export type RelatedOf<Loaders> = {
  readonly [K in keyof Loaders]?: Loaders[K] extends Loader<infer Value> ? Map<number, Value> : never;
};

/** `Rel`: what `render` reads of the page's loaded data (`RelatedOf` the declaration's loaders). */
export interface FieldDef<Row, Value = unknown, Rel = Related> {
  kind?: "fixed" | "default" | "optional";
  render: (row: Row, related: Rel, ctx: RenderContext) => Value;
  /** Loaders whose data `render` reads. */
  needs?: (keyof Rel & string)[];
  /** Output key when it differs from the field name; objects under the same key are merged. */
  into?: string;
  /**
   * The column the field is, as stored (`column(...)`): rendered as is, and written from the body
   * key of the field's name (write/column-changes.ts).
   */
  column?: SQLiteColumn;
}

export interface TranslatedFieldDef<Row, TrRow, Value = unknown> {
  kind?: "default" | "optional";
  render: (tr: TrRow | undefined, locale: string, row: Row, ctx: RenderContext) => Value;
  /**
   * The translation-table columns `render` reads (`[]`: none). When every selected translated field
   * declares them, only those columns are loaded, and no query runs when none is needed; absent:
   * the whole translation row.
   */
  columns?: SQLiteColumn[];
  /**
   * The translation column the field is, as stored (`translatedColumn(...)`): written from the
   * translation entry's key of the field's name (write/translations.ts).
   */
  column?: SQLiteColumn;
}

/** A resource's translation table (one row per owner and locale) and its translated fields. */
interface TranslationsDef<Row, TrRow, Fields = Record<string, TranslatedFieldDef<Row, TrRow>>> {
  table: SQLiteTable;
  fk: SQLiteColumn;
  localeColumn: SQLiteColumn;
  fields: Fields;
}

/** Nested objects of a loader, rendered by the engine: nested name → (nested row id → rendered object). */
export type NestedRendered = Record<string, Map<number, Record<string, unknown>>>;

interface NestedDef {
  /** The resource whose default representation (with the request's locales) the objects take. */
  resource: () => AnyResource;
  /** That resource's base rows found in the loader's query result. */
  rows: (result: unknown) => { id: number }[];
}

/** Built by `loader()` (loader.ts), which types `collect`'s rows as its query's. */
export interface Loader<Value = unknown> {
  /** One query for every row of the page: filter with `ids.in(column)`. */
  query: (db: Db, ids: IdSet, ctx: RenderContext) => BatchItem<"sqlite">;
  /** Groups the query's result by row id; `nested` holds the rendered objects `nested` declares. */
  collect: (result: unknown, nested: NestedRendered) => Map<number, Value>;
  /**
   * Rows of other resources in the query's result that the field embeds as objects (a price
   * list's discount categories). The engine renders them in their default representation, loading
   * what they need for the whole page in one more round trip (shared with includes). One level only:
   * a nested resource's own loaders cannot nest again.
   */
  nested?: Record<string, NestedDef>;
}

export interface IncludeDef<Row> {
  resource: () => AnyResource;
  kind: "one" | "many";
  /** One query returning the related rows (the included resource's base rows) for the page. */
  query: (db: Db, ids: IdSet, ctx: RenderContext) => BatchItem<"sqlite">;
  /** The ids of those related rows, for loading what their representation needs in the same batch. */
  childIds: (db: Db, ids: IdSet) => IdSet;
  /** Related base rows of each parent row id, in output order. */
  group: (result: unknown, rows: Row[]) => Map<number, Record<string, unknown>[]>;
  /**
   * The representation of the included object when it is not the related resource's default one:
   * its fixed fields plus exactly these (as if `fields=` were given to it). Absent: default fields.
   */
  fields?: string[];
}

/** Carried only by what `filter()` (filters.ts) builds: a hand-written `{ schema, where }` lacks it. */
declare const typedFilter: unique symbol;

/** A list filter, made by `filter(schema, where)` (or a shape built on it), typed end to end. */
export interface FilterDef {
  readonly [typedFilter]: true;
  schema: z.ZodType;
  where: (value: never, ctx: FilterContext) => SQL | undefined;
  required?: boolean;
  /**
   * The `row_counts` key that triggers keep for this value's matches (migration 0005), read as the
   * total when this filter is the list's only condition; absent: the matches are counted.
   */
  keptCount?: (value: never) => string;
  /**
   * For a filter through related rows: the listed table's ids it matches, as a one-column select of
   * the related rows (`SELECT product_id FROM variants WHERE sku IN …`). A list given such a filter
   * reads its page and count from these matches (`listSource`), not from its own table.
   */
  matches?: (value: never, ctx: FilterContext) => SQL | undefined;
  /**
   * For a filter through related rows: the condition checked for one listed row at a time (an
   * `EXISTS` correlated on its id), for a walk of the table in id order (an export's pages): the
   * related rows of each row are searched by their key, where `where`'s uncorrelated `IN` would be
   * computed whole for every page.
   */
  perRow?: (value: never, ctx: FilterContext) => SQL | undefined;
}

/** A FilterDef without its brand: what `filter()` fills in before branding it. */
export type UnbrandedFilter = Omit<FilterDef, typeof typedFilter>;

type SortDef = { column: SQLiteColumn } | { translated: SQLiteColumn };

type IdValue = z.ZodType<string | number, string>;

/** Where a sub-resource's rows belong: its list is served under one parent row, e.g. `/jobs/{id}/logs`. */
export interface ParentDef {
  /** The parent's label, table and key column: a list under an unknown parent is 404 ("Job not found"). */
  label: string;
  table: SQLiteTable;
  idColumn: SQLiteColumn;
  /** The path's one parameter, the parent's id, named as in `path`. */
  params: z.ZodObject<Record<string, IdValue>>;
  /** This resource's column holding the parent's id. */
  column: SQLiteColumn;
  /** The list's summary ("List the log entries of a job"). */
  summary: string;
}

export interface ResourceDef<Row extends { id: number | string }, TrRow = unknown> {
  name: string;
  /** Singular label used in messages ("Brand not found"). */
  label: string;
  /** Collection path under `/api/v1` (`/brands`); a sub-resource's holds its parent's id (`/jobs/{id}/logs`). */
  path: string;
  /** The OpenAPI tag of its operations. */
  tag: string;
  /**
   * Plural of `label`. The two name the standard operations: `listPriceLists` "List price lists",
   * `getPriceList` "Get a price list"; under a parent, `list` + the parent's label + this (`listJobLogs`).
   */
  plural: string;
  /** Contract schema of one item: the default representation and every optional field. */
  item: z.ZodObject;
  /** What the list's documentation says beyond its summary. */
  description?: string;
  /** The API key scope every operation of the resource needs; absent: `read` to read, `write` to write. */
  scope?: Scope;
  /** The `{id}` path parameter of its get; absent: a positive integer. */
  idParam?: z.ZodObject<{ id: IdValue }>;
  /** Set when the resource is listed only under one parent row (and has no get of its own). */
  parent?: ParentDef;
  table: SQLiteTable;
  /**
   * The column that keys a row: rows are selected with it aliased as `id`, which loaders, sorts'
   * tie-break and `get` use. Usually the table's `id`; a table keyed otherwise (price-list variant
   * prices, by `variant_id` within one list) names its own, and renders `id` only if it declares it.
   */
  idColumn: SQLiteColumn;
  fields: Record<string, FieldDef<Row>>;
  translations?: TranslationsDef<Row, TrRow>;
  loaders?: Record<string, Loader>;
  includes?: Record<string, IncludeDef<Row>>;
  filters?: Record<string, FilterDef>;
  sorts: Record<string, SortDef>;
  defaultSort: string;
  /** Extra condition every list and get applies (e.g. rows a view never shows). */
  where?: (ctx: RenderContext) => SQL | undefined;
  perPage?: { default: number; max: number };
  /** Whether the resource takes `locales` (it has translations or market prices). */
  localized: boolean;
  /** Whether `fields` applies (every resource except the store). */
  selectable?: boolean;
  /**
   * The edge cache domains its answers read (src/db/cache-generations.ts): its list and get may
   * then be served from the cache. Absent: never cached (orders, contacts, jobs, webhooks). An
   * include adds its resource's domains to the answers that ask for it (`readDomains`, src/edge/cache-key.ts).
   */
  cache?: readonly CacheDomain[];
  /**
   * Domains a list filter reads beyond `cache`, added to the key of a request that uses it
   * (products' `category_ids` walks the category tree). For a stamped domain the filter takes ids of
   * it, and the key carries the stamps of those ids' buckets (src/edge/cache-key.ts).
   */
  filterCache?: Readonly<Record<string, readonly CacheDomain[]>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry of heterogeneous resources
export type AnyResource = ResourceDef<any, any>;

/** What a declaration is checked against (`defineResource<{ row: …; item: typeof …Schema }>`). */
export interface DeclarationTypes {
  /** The base row as the engine selects it. */
  row: { id: number | string };
  /** The translation table's row, when the item has `translations`. */
  translationRow?: object;
  /** The type of the declaration's `item`: one field per key, translated fields per its `translations` value. */
  item: z.ZodObject;
  /** The item's keys that are includes, not fields. */
  includes?: string;
  /** Fields that render into a shared key of the item (`into`): field name → that key. */
  into?: Record<string, string>;
  /** The declaration's loaders (`typeof` a constant): fields read what each collects, typed. */
  loaders?: Record<string, Loader>;
}

type ItemOf<S extends DeclarationTypes> = z.output<S["item"]>;
type TrRowOf<S> = S extends { translationRow: infer T } ? T : unknown;
type IncludesOf<S> = S extends { includes: infer I extends string } ? I : never;
type LoadersOf<S> = S extends { loaders: infer L extends Record<string, Loader> } ? L : Record<never, Loader>;
type RelatedOfS<S> = RelatedOf<LoadersOf<S>>;
type IntoOf<S> = S extends { into: infer M extends Record<string, string> } ? M : Record<never, string>;
/** A rendered value: whatever the contract allows under the key (absence is the selection's business). */
type Rendered<T> = Exclude<T, undefined>;

type FieldName<S extends DeclarationTypes> = Exclude<
  keyof ItemOf<S> & string,
  "translations" | IncludesOf<S>
>;

/** One field per item key (translations and includes aside), plus the fields rendered `into` a key. */
type DeclaredFields<S extends DeclarationTypes> = {
  [K in FieldName<S>]-?: FieldDef<S["row"], Rendered<ItemOf<S>[K]>, RelatedOfS<S>>;
} & {
  [K in keyof IntoOf<S>]-?: FieldDef<
    S["row"],
    Rendered<ItemOf<S>[IntoOf<S>[K] & keyof ItemOf<S>]>,
    RelatedOfS<S>
  > & {
    into: IntoOf<S>[K];
  };
};

type TranslationItem<S extends DeclarationTypes> =
  ItemOf<S> extends { translations?: Record<string, infer T> } ? T : never;

type DeclaredTranslations<S extends DeclarationTypes> = "translations" extends keyof ItemOf<S>
  ? {
      translations: TranslationsDef<
        S["row"],
        TrRowOf<S>,
        {
          [K in keyof TranslationItem<S>]-?: TranslatedFieldDef<
            S["row"],
            TrRowOf<S>,
            Rendered<TranslationItem<S>[K]>
          >;
        }
      >;
    }
  : { translations?: never };

type DeclaredIncludes<S extends DeclarationTypes> = [IncludesOf<S>] extends [never]
  ? { includes?: never }
  : { includes: Record<IncludesOf<S>, IncludeDef<S["row"]>> };

type DeclaredLoaders<S extends DeclarationTypes> = S extends { loaders: infer L }
  ? { loaders: L }
  : { loaders?: never };

/** A declaration checked against its contract: a missing, extra or wrongly typed field does not compile. */
export type Declaration<S extends DeclarationTypes> = Omit<
  ResourceDef<S["row"], TrRowOf<S>>,
  "item" | "fields" | "translations" | "includes" | "loaders"
> & { item: S["item"]; fields: DeclaredFields<S> } & DeclaredTranslations<S> &
  DeclaredIncludes<S> &
  DeclaredLoaders<S>;

export function defineResource<S extends DeclarationTypes>(
  def: Declaration<S>,
): ResourceDef<S["row"], TrRowOf<S>> {
  // The engine hands a field `related[name]` as `loaders[name].collect` made it: what `RelatedOf` says.
  const resource = def as unknown as ResourceDef<S["row"], TrRowOf<S>>;
  assertOwnColumns(resource);
  return resource;
}

/** A field's `column` must be one of its own table's: writing another table's column would drop it. */
function assertOwnColumns(def: AnyResource) {
  const misplaced = [
    ...Object.entries(def.fields).filter(([, f]) => f.column && f.column.table !== def.table),
    ...Object.entries(def.translations?.fields ?? {}).filter(
      ([, f]) => f.column && f.column.table !== def.translations?.table,
    ),
  ].map(([name]) => name);
  if (misplaced.length > 0) throw new Error(`${def.name}: columns of another table: ${misplaced.join(", ")}`);
}
